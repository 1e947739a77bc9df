package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// stepKind says what one step of a multi-file change does.
type stepKind int

const (
	stepWrite  stepKind = iota // replace the content of path (compare-and-swap on hash)
	stepCreate                 // create path, never overwriting
	stepRemove                 // remove path (compare-and-swap on hash)
	stepRename                 // move path to to (compare-and-swap on hash)
)

// step is one file operation of a multi-file change, with what is needed to undo it.
type step struct {
	kind stepKind
	path vpath.Path
	to   vpath.Path // stepRename only
	old  []byte     // the content read (stepWrite, stepRemove)
	hash vault.Hash // the hash of the content read (stepWrite, stepRemove, stepRename)
	data []byte     // the new content (stepWrite, stepCreate)
}

// touched lists the paths a step changes.
func (s step) touched() []vpath.Path {
	if s.kind == stepRename {
		return []vpath.Path{s.path, s.to}
	}
	return []vpath.Path{s.path}
}

// applySteps runs steps in order, each a compare-and-swap against what was read. If
// one fails, the steps already done are undone, newest first (best effort), and the
// failure is answered: a result when the caller can act on it (a file changed, a name
// is taken), a Go error when the infrastructure broke. The library is refreshed on
// every path touched either way. Both nil means every step was applied.
func applySteps(ctx context.Context, l *library.Library, call *tool.Call, op string, steps []step) (*tool.Result, error) {
	var paths []vpath.Path
	for _, s := range steps {
		paths = append(paths, s.touched()...)
	}
	defer l.Refresh(context.WithoutCancel(ctx), paths...)
	o := writeOpts(call, op)
	for i, s := range steps {
		err := doStep(ctx, l.Vault(), s, o)
		if err == nil {
			continue
		}
		undoErrs := undoSteps(context.WithoutCancel(ctx), l.Vault(), steps[:i], writeOpts(call, op+" (undo)"))
		r, ok := writeFailure(s.path, err)
		if !ok {
			return nil, errors.Join(fmt.Errorf("%s: %w", op, err), errors.Join(undoErrs...))
		}
		r.Message += fmt.Sprintf("; %s was not applied", op)
		if len(undoErrs) > 0 {
			r.Message = fmt.Sprintf("%s; undoing the %d files already changed failed: check git status", r.Message, i)
			for _, u := range undoErrs {
				r = r.WithWarning("%v", u)
			}
		} else if i > 0 {
			r.Message += fmt.Sprintf(" (the %d files already changed were restored)", i)
		}
		return &r, nil
	}
	return nil, nil
}

// doStep applies one step.
func doStep(ctx context.Context, v *vault.Vault, s step, o vault.WriteOptions) error {
	switch s.kind {
	case stepWrite:
		o.IfHash = s.hash
		_, err := v.Write(ctx, s.path, s.data, o)
		return err
	case stepCreate:
		o.CreateOnly = true
		_, err := v.Write(ctx, s.path, s.data, o)
		return err
	case stepRemove:
		o.IfHash = s.hash
		return v.RemoveWith(ctx, s.path, o)
	case stepRename:
		o.IfHash = s.hash
		return v.RenameWith(ctx, s.path, s.to, o)
	}
	return fmt.Errorf("unknown step kind %d", s.kind)
}

// undoSteps reverts done steps, newest first, each only if its file still holds what
// the step wrote, and returns what could not be undone.
func undoSteps(ctx context.Context, v *vault.Vault, done []step, o vault.WriteOptions) []error {
	var errs []error
	for i := len(done) - 1; i >= 0; i-- {
		s, u := done[i], o
		var err error
		switch s.kind {
		case stepWrite:
			u.IfHash = vault.HashOf(s.data)
			_, err = v.Write(ctx, s.path, s.old, u)
		case stepCreate:
			u.IfHash = vault.HashOf(s.data)
			err = v.RemoveWith(ctx, s.path, u)
		case stepRemove:
			u.CreateOnly = true
			_, err = v.Write(ctx, s.path, s.old, u)
		case stepRename:
			err = v.RenameWith(ctx, s.to, s.path, u)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("undo %s: %w", s.path, err))
		}
	}
	return errs
}

// findEntity resolves an entity name to an existing note. A name that is the note's
// exact path (with or without .md) is found with one stat, without the graph, so that
// a lazily opened library is not scanned; anything else goes through lookup.
func findEntity(l *library.Library, name string) (vpath.Path, *tool.Result) {
	if p, ok := directPath(l, name); ok {
		return p, nil
	}
	return lookup(l, name)
}

// directPath returns the note whose path is exactly name (plus .md), if it exists.
func directPath(l *library.Library, name string) (vpath.Path, bool) {
	n := strings.TrimSpace(name)
	if !strings.HasSuffix(strings.ToLower(n), ".md") {
		n += ".md"
	}
	p, err := vpath.Parse(n)
	if err != nil || p == "" || p.Ignored() || string(p) != n {
		return "", false
	}
	fi, err := l.Vault().Stat(p)
	if err != nil || fi.IsDir {
		return "", false
	}
	return p, true
}

// readEntity finds a note by name and reads it with its hash; res is the answer when
// the name does not name a readable note.
func readEntity(l *library.Library, name string) (p vpath.Path, data []byte, h vault.Hash, res *tool.Result, err error) {
	p, res = findEntity(l, name)
	if res != nil {
		return "", nil, "", res, nil
	}
	data, h, err = l.Vault().Read(p)
	if err != nil {
		if r, ok := writeFailure(p, err); ok {
			return "", nil, "", &r, nil
		}
		return "", nil, "", nil, err
	}
	return p, data, h, nil, nil
}

// checkBase answers conflict when the caller's base_hash is not the current hash.
func checkBase(p vpath.Path, base string, cur vault.Hash) *tool.Result {
	if base == "" || vault.Hash(strings.TrimSpace(base)) == cur {
		return nil
	}
	r := tool.Fail(tool.CodeConflict, "%s changed since the version with base_hash %.12s was read (now %.12s); read_entities it again and redo the change", p.Name(), base, cur)
	r.Data = map[string]any{"current_hash": string(cur)}
	return &r
}
