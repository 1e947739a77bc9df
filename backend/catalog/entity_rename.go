package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// renameEntityIn is the input of rename_entity.
type renameEntityIn struct {
	OldName string `json:"old_name" jsonschema:"the note to rename"`
	NewName string `json:"new_name" jsonschema:"its new name; without a / the note stays in its folder"`
	tool.LibraryArg
}

// renameEntity renames a note and rewrites every link and relation to it.
func (e *env) renameEntity(ctx context.Context, call *tool.Call, in renameEntityIn) (tool.Result, *renameOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	oldP, res, err := findEntity(ctx, l.Library, in.OldName)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	name := strings.TrimSpace(in.NewName)
	if name != "" && !strings.ContainsAny(name, `/\`) && oldP.Dir() != "" {
		name = string(oldP.Dir()) + "/" + name
	}
	newP, res := entNewPath(name)
	if res != nil {
		return *res, nil, nil
	}
	return e.relocate(ctx, call, l, oldP, newP, "rename_entity")
}

// moveEntityIn is the input of move_entity.
type moveEntityIn struct {
	EntityName string `json:"entity_name" jsonschema:"the note to move"`
	Folder     string `json:"folder" jsonschema:"the folder to move it into, vault-relative (\"\" is the vault root)"`
	tool.LibraryArg
}

// moveEntity moves a note into another folder, keeping its basename, and rewrites
// every link and relation to it.
func (e *env) moveEntity(ctx context.Context, call *tool.Call, in moveEntityIn) (tool.Result, *renameOut, error) {
	l, res, err := e.loaded(ctx, call)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	oldP, res, err := findEntity(ctx, l.Library, in.EntityName)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	folder := strings.TrimRight(strings.TrimSpace(strings.ReplaceAll(in.Folder, `\`, "/")), "/")
	if folder != "" {
		f, err := vpath.ParseNew(folder)
		if err != nil {
			return tool.Fail(tool.CodeInvalidArguments, "folder %q: %v; give a vault-relative folder such as \"people/past\"", in.Folder, err), nil, nil
		}
		if f.IsNote() {
			return tool.Fail(tool.CodeInvalidArguments, "folder %q is not a vault-relative folder such as \"people/past\"", in.Folder), nil, nil
		}
		folder = string(f) + "/"
	}
	newP, res := entNewPath(folder + oldP.Base())
	if res != nil {
		return *res, nil, nil
	}
	return e.relocate(ctx, call, l, oldP, newP, "move_entity")
}

// relocate moves the note at oldP to newP and rewrites the links to it everywhere.
// Every new content is computed first; the writes are compare-and-swaps, undone if
// one fails.
func (e *env) relocate(ctx context.Context, call *tool.Call, l lib, oldP, newP vpath.Path, op string) (tool.Result, *renameOut, error) {
	newP = respell(l, newP)
	switch {
	case oldP == newP:
		return tool.Fail(tool.CodeInvalidArguments, "%s already has that name", oldP.Name()), nil, nil
	// A name that differs only in case or Unicode form "exists" where the file system
	// ignores those, as this very note: the vault tells the two apart (vault.Apply).
	case !portable.SameName(string(oldP), string(newP)) && entityExists(l.Library, newP):
		return tool.Fail(tool.CodeAlreadyExists, "%s already exists; choose another name, or merge_entities to join the two", newP.Name()), nil, nil
	}
	if res := twin(l, newP, oldP); res != nil {
		return *res, nil, nil
	}
	g := l.Graph()
	short := uniqueBase(g, newP, oldP)
	r := relinker{g: g, moved: map[vpath.Path]linkDest{oldP: {path: newP, short: short}}}
	if !short {
		// Other notes share the new basename: their links by basename would become
		// ambiguous, so they are written as full names too.
		for _, p := range g.Notes() {
			if p != oldP && strings.EqualFold(entBase(p), entBase(newP)) {
				r.moved[p] = linkDest{path: p}
			}
		}
	}
	own, warns, res, err := ownRelocation(l, r, oldP, newP)
	if res != nil || err != nil {
		return entResult(res), nil, err
	}
	steps := own
	targets := make([]vpath.Path, 0, len(r.moved))
	for p := range r.moved {
		targets = append(targets, p)
	}
	others, count, w2, err := relinkSources(l, r, backlinkSources(l, []vpath.Path{oldP}, targets...))
	if err != nil {
		return tool.Result{}, nil, err
	}
	steps, warns = append(steps, others...), append(warns, w2...)
	if r, err := applySteps(ctx, l, call, op, steps); r != nil || err != nil {
		return entResult(r), nil, err
	}
	changed := make([]string, len(others))
	for i, s := range others {
		changed[i] = s.path.Name()
	}
	msg := fmt.Sprintf("renamed %s to %s; %d links in %d other notes were rewritten", oldP.Name(), newP.Name(), count, len(others))
	res2 := tool.OK(msg)
	res2.Warnings = append(warns, e.canvasRenamed(ctx, l.Library, oldP, newP)...)
	return res2, &renameOut{OldName: oldP.Name(), NewName: newP.Name(), Rewritten: changed}, nil
}

// renameOut is the output of rename_entity and move_entity: the old and new names, and
// the other notes whose links were rewritten.
type renameOut struct {
	NewName   string   `json:"new_name"`
	OldName   string   `json:"old_name"`
	Rewritten []string `json:"rewritten"`
}

// backlinkSources lists, sorted, the notes with links or relations to the notes in
// ps, leaving out the notes in skip (whose links the caller rewrites itself). The
// notes the index keeps only part of are listed too: a link past the part it keeps
// is found by reading the note.
func backlinkSources(l lib, skip []vpath.Path, ps ...vpath.Path) []vpath.Path {
	seen := map[vpath.Path]bool{}
	for _, p := range skip {
		seen[p] = true
	}
	var out []vpath.Path
	for _, p := range ps {
		for _, ed := range l.Graph().Backlinks(p) {
			if !seen[ed.From] {
				seen[ed.From] = true
				out = append(out, ed.From)
			}
		}
	}
	for _, p := range l.Truncated() {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// relinkSources computes the rewrite of every note in srcs: a write step for each
// note that changes, the number of links rewritten and the problems met.
func relinkSources(l lib, r relinker, srcs []vpath.Path) ([]step, int, []string, error) {
	now := time.Now()
	var steps []step
	var warns []string
	count := 0
	for _, p := range srcs {
		data, h, err := l.Vault().Read(p)
		if err != nil {
			if _, ok := writeFailure(p, err); ok {
				warns = append(warns, fmt.Sprintf("%s could not be read to rewrite its links: %v", p.Name(), err))
				continue
			}
			return nil, 0, nil, err
		}
		n := note.Parse(data)
		edits, probs := r.relink(p, p, data, n, false)
		warns = append(warns, probs...)
		out, ok := entApplyEdits(p, data, n, edits, &warns)
		if !ok {
			continue
		}
		count += len(edits)
		steps = append(steps, writeStep(p, data, h, touchModified(out, now)))
	}
	return steps, count, warns, nil
}

// applyEdits applies link edits to src and checks that the note still reads as well
// as before; ok is false when there is nothing to write or the result would be worse
// (a warning says so).
func entApplyEdits(p vpath.Path, src []byte, n *note.Note, edits []note.Edit, warns *[]string) ([]byte, bool) {
	if len(edits) == 0 {
		return nil, false
	}
	out, err := note.ReplaceSpans(src, edits)
	if err == nil && len(note.Parse(out).Warnings) > len(n.Warnings) {
		err = fmt.Errorf("the rewritten note would not parse cleanly")
	}
	if err != nil {
		*warns = append(*warns, fmt.Sprintf("links in %s were left as they are: %v", p.Name(), err))
		return nil, false
	}
	return out, true
}

// ownRelocation computes the steps that move the note itself: its links to itself and
// links that would resolve differently from its new folder are rewritten, and its old
// basename becomes an alias.
func ownRelocation(l lib, r relinker, oldP, newP vpath.Path) ([]step, []string, *tool.Result, error) {
	data, h, err := l.Vault().Read(oldP)
	if err != nil {
		if res, ok := writeFailure(oldP, err); ok {
			return nil, nil, &res, nil
		}
		return nil, nil, nil, err
	}
	n := note.Parse(data)
	edits, warns := r.relink(oldP, newP, data, n, false)
	out := data
	if o, ok := entApplyEdits(oldP, data, n, edits, &warns); ok {
		out = o
	}
	out, warns = withAlias(out, oldP, newP, warns)
	out = touchModified(out, time.Now())
	if string(out) == string(data) {
		return []step{{kind: stepRename, path: oldP, to: newP, hash: h}}, warns, nil, nil
	}
	w := writeStep(oldP, data, h, out)
	return []step{w, {kind: stepRename, path: oldP, to: newP, hash: vault.HashOf(w.data)}}, warns, nil, nil
}

// withAlias adds the old basename to the aliases of a renamed note.
func withAlias(src []byte, oldP, newP vpath.Path, warns []string) ([]byte, []string) {
	oldBase := entBase(oldP)
	if strings.EqualFold(oldBase, entBase(newP)) {
		return src, warns
	}
	n := note.Parse(src)
	for _, a := range n.Aliases {
		if strings.EqualFold(a, oldBase) {
			return src, warns
		}
	}
	out, err := note.SetProperties(src, []note.Property{{Key: "aliases", Value: entCleanList(append(n.Aliases, oldBase), false)}}, nil)
	if err != nil {
		return src, append(warns, fmt.Sprintf("the old name was not added as an alias: %v", err))
	}
	return out, warns
}

// baseName returns the last element of a note's name.
func entBase(p vpath.Path) string {
	n := p.Name()
	return n[strings.LastIndexByte(n, '/')+1:]
}
