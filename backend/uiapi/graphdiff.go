package uiapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// MaxGraphBefore bounds the notes one GraphBefore call reads from the last commit.
const MaxGraphBefore = 5000

// NoteBefore is a note as the last commit has it, in the graph's terms: whether it
// existed there, and the edges it had.
type NoteBefore struct {
	Path string `json:"path"`
	// Existed is false for a note the last commit does not have (new since).
	Existed bool `json:"existed"`
	// Edges are the note's links and relations then, resolved against the files of
	// today (so a link to a note deleted since shows as unresolved).
	Edges []EdgeBefore `json:"edges"`
}

// EdgeBefore is one edge of a NoteBefore.
type EdgeBefore struct {
	// To names the target as GraphData does: a vault path, or "unresolved:<name>".
	To       string `json:"to"`
	Relation string `json:"relation"`
}

// GraphBefore returns the notes at paths (a change set's notes; for a rename, its old
// path) as the last commit has them, so the window can show what the change set
// adds to and removes from the graph. A library that is not a git repository, or has
// no commit yet, has no before: every note is new; so has a file outside the graph
// (in .trash or .obsidian).
func (a *API) GraphBefore(libraryName string, paths []string) ([]NoteBefore, error) {
	if len(paths) > MaxGraphBefore {
		return nil, fmt.Errorf("graph before: %d notes asked for, at most %d at a time", len(paths), MaxGraphBefore)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, err
	}
	r, err := a.repo(l)
	if err != nil && !errors.Is(err, gitrepo.ErrNotRepository) {
		return nil, err
	}
	g, err := graphOf(l)
	if err != nil {
		return nil, err
	}
	out := make([]NoteBefore, 0, len(paths))
	for _, raw := range paths {
		p, err := vpath.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("graph before %q: %w", raw, err)
		}
		nb := NoteBefore{Path: string(p), Edges: []EdgeBefore{}}
		// A file outside the graph (Obsidian's .trash or settings, which git reports
		// and a change set may hold) has no before to show; nothing is read.
		if r == nil || !p.IsNote() || p.Ignored() {
			out = append(out, nb)
			continue
		}
		b, err := r.Show(ctx, p, "HEAD")
		switch {
		case errors.Is(err, gitrepo.ErrNotInRevision), errors.Is(err, gitrepo.ErrNoRevision):
			out = append(out, nb)
			continue
		case err != nil:
			return nil, fmt.Errorf("graph before %s: %w", p, err)
		}
		nb.Existed = true
		for _, e := range g.EdgesOf(p, note.Parse(b)) {
			switch {
			case e.Resolved && e.To != p:
				nb.Edges = append(nb.Edges, EdgeBefore{To: string(e.To), Relation: e.Type})
			case !e.Resolved && e.Target != "":
				nb.Edges = append(nb.Edges, EdgeBefore{To: "unresolved:" + e.Target, Relation: e.Type})
			}
		}
		out = append(out, nb)
	}
	return out, nil
}
