package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
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

// writeStep is the step that rewrites the note at p, read as old with hash h, to
// data, keeping the note's line endings, byte order mark and final line break.
func writeStep(p vpath.Path, old []byte, h vault.Hash, data []byte) step {
	if p.IsNote() {
		data = note.KeepStyle(old, data)
	}
	return step{kind: stepWrite, path: p, old: old, hash: h, data: data}
}

// applySteps applies steps as one batch, all or nothing (Library.Apply, which indexes
// every path touched either way): every compare-and-swap is checked under the vault
// lock before any file changes, the batch is made durable together, and a crash in
// the middle is finished by the next open. A failure is answered as a result when the
// caller can act on it (a file changed, a name is taken), as a Go error when the
// infrastructure broke. Both nil means every step was applied.
func applySteps(ctx context.Context, l lib, call *tool.Call, op string, steps []step) (*tool.Result, error) {
	changes, res, err := batchOf(l.Vault(), steps)
	if res != nil || err != nil {
		return res, err
	}
	_, err = l.Apply(ctx, changes, writeOpts(call, op))
	if err == nil {
		return nil, nil
	}
	failed := steps[0].path
	var pe *fs.PathError
	if errors.As(err, &pe) {
		failed = vpath.Path(pe.Path)
	}
	r, ok := writeFailure(failed, err)
	if !ok {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if errors.Is(err, vault.ErrPending) {
		r.Message += fmt.Sprintf("; %s is recorded and is completed at the next write or open of the vault", op)
	} else {
		r.Message += fmt.Sprintf("; %s was not applied and no file changed", op)
	}
	return &r, nil
}

// batchOf turns ordered steps into one batch of changes, one per file: a rename is the
// removal of the old path and the creation of the new one, and a later step on a path
// the batch already changes folds into that change.
func batchOf(v vault.View, steps []step) ([]vault.Change, *tool.Result, error) {
	var changes []vault.Change
	at := map[vpath.Path]int{}
	put := func(c vault.Change) {
		if i, ok := at[c.Path]; ok {
			prev := changes[i]
			switch {
			case c.Delete && prev.CreateOnly: // created then removed in one batch
				prev = vault.Change{Path: c.Path, Delete: true, IfHash: "none"}
			case c.Delete:
				prev.Delete, prev.Data = true, nil
			default:
				prev.Data, prev.Delete = c.Data, false
			}
			changes[i] = prev
			return
		}
		at[c.Path] = len(changes)
		changes = append(changes, c)
	}
	for _, s := range steps {
		switch s.kind {
		case stepWrite:
			put(vault.Change{Path: s.path, Data: s.data, IfHash: s.hash})
		case stepCreate:
			put(vault.Change{Path: s.path, Data: s.data, CreateOnly: true})
		case stepRemove:
			put(vault.Change{Path: s.path, Delete: true, IfHash: s.hash})
		case stepRename:
			data := s.old
			if i, ok := at[s.path]; ok && !changes[i].Delete {
				// Renaming a file this batch already rewrites: move the new content.
				if vault.HashOf(changes[i].Data) != s.hash {
					return nil, nil, fmt.Errorf("rename %s: the batch's hash does not match its own write", s.path)
				}
				data = changes[i].Data
			} else if data == nil {
				b, h, err := v.Read(s.path)
				if err != nil {
					if r, ok := writeFailure(s.path, err); ok {
						return nil, &r, nil
					}
					return nil, nil, err
				}
				if h != s.hash {
					r, _ := writeFailure(s.path, vault.ErrConflict)
					return nil, &r, nil
				}
				data = b
			}
			from := s.path
			if i, ok := at[s.path]; ok && changes[i].From != "" {
				from = changes[i].From // moved twice in one batch: one move from the first path
			}
			put(vault.Change{Path: s.path, Delete: true, IfHash: s.hash})
			put(vault.Change{Path: s.to, Data: data, CreateOnly: true, From: from})
		default:
			return nil, nil, fmt.Errorf("unknown step kind %d", s.kind)
		}
	}
	// A path created and removed again in one batch is no change at all.
	out := changes[:0]
	for _, c := range changes {
		if c.IfHash != "none" {
			out = append(out, c)
		}
	}
	return out, nil, nil
}

// findEntity resolves an entity name to an existing note. A name that is the note's
// exact path (with or without .md) is found with one stat, without the graph, so that
// a lazily opened library is not scanned; anything else goes through lookup.
func findEntity(ctx context.Context, l *library.Library, name string) (vpath.Path, *tool.Result, error) {
	if p, ok := directPath(l, name); ok {
		return p, nil, nil
	}
	g, err := l.Graph(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("read library %s: %w", l.Name(), err)
	}
	p, res := lookup(lib{l, g}, name)
	return p, res, nil
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
func readEntity(ctx context.Context, l *library.Library, name string) (p vpath.Path, data []byte, h vault.Hash, res *tool.Result, err error) {
	p, res, err = findEntity(ctx, l, name)
	if res != nil || err != nil {
		return "", nil, "", res, err
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
	r.Data = struct {
		CurrentHash string `json:"current_hash"`
	}{string(cur)}
	return &r
}
