package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/tool"
)

// Bounds of the hunks git_status and git_resolve show of a conflict.
const (
	maxConflictsShown = 50    // notes whose hunks are shown
	maxHunksShown     = 20    // hunks shown per note
	maxSideShown      = 2_000 // bytes shown of each side of a hunk
)

type gitResolveIn struct {
	EntityName string `json:"entity_name" jsonschema:"the conflicted note, as git_status lists it under conflicts"`
	Take       string `json:"take" jsonschema:"ours (this copy's version), theirs (the version the pull brought in), both (ours then theirs), or as_edited (the note as it stands, once you removed its markers yourself)"`
	Hunks      []int  `json:"hunks,omitempty" jsonschema:"the numbers of the hunks to resolve so, from 1, as git_status lists them; every hunk when absent"`
	tool.LibraryArg
}

// conflictOut is one conflicted note as git_status and git_resolve show it.
type conflictOut struct {
	Entity string `json:"entity"`
	Path   string `json:"path"`
	// Kind is content (hunks), binary, deleted_by_us, deleted_by_them, added_by_us or
	// added_by_them (whole-file: take a side).
	Kind  string    `json:"kind"`
	Hunks int       `json:"hunks"`
	Shown []hunkOut `json:"hunk_sides,omitempty"`
}

// hunkOut is one hunk's sides, each clipped to maxSideShown bytes.
type hunkOut struct {
	Number   int    `json:"number"`
	Property string `json:"property,omitempty"`
	Ours     string `json:"ours"`
	Base     string `json:"base,omitempty"`
	Theirs   string `json:"theirs"`
}

// resolveOut is the output of git_resolve: the note, whether it is resolved, and what
// is left.
type resolveOut struct {
	Entity    string        `json:"entity"`
	Resolved  bool          `json:"resolved"`
	HunksLeft int           `json:"hunks_left"`
	Conflicts []conflictOut `json:"conflicts_left"`
	// Operation says what git is in the middle of, when anything.
	Operation string `json:"operation,omitempty"`
}

func (e *env) gitResolve(ctx context.Context, call *tool.Call, in gitResolveIn) (tool.Result, *resolveOut, error) {
	take := gitrepo.Choice(strings.TrimSpace(in.Take))
	switch take {
	case gitrepo.TakeOurs, gitrepo.TakeTheirs, gitrepo.TakeBoth, gitrepo.TakeAsEdited:
	default:
		return tool.Fail(tool.CodeInvalidArguments, "take is %q: choose ours, theirs, both or as_edited", in.Take), nil, nil
	}
	g, res, err := e.gitOpen(ctx, call, true)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	p, res, err := g.gitPath(ctx, in.EntityName, false)
	if res != nil || err != nil {
		return deref(res), nil, err
	}
	rr, err := g.repo.Resolve(ctx, gitrepo.ResolveOptions{Path: p, Take: take, Hunks: in.Hunks,
		Actor: actorOf(call), Op: "git_resolve", Turn: call.Turn, Session: call.Session})
	switch {
	case errors.Is(err, gitrepo.ErrNotConflicted):
		return tool.Fail(tool.CodeNoMatch, "%s has no conflict to resolve; git_status lists the conflicted notes", p.Name()), nil, nil
	case errors.Is(err, gitrepo.ErrBadResolution), errors.Is(err, gitrepo.ErrInvalidPath):
		return tool.Fail(tool.CodeInvalidArguments, "%v", err), nil, nil
	case err != nil:
		if r, ok := writeFailure(p, err); ok {
			return r, nil, nil
		}
		if res := badConfig(err); res != nil {
			return *res, nil, nil
		}
		return tool.Result{}, nil, err
	}
	left, err := g.conflictsOut(ctx)
	if err != nil {
		return tool.Result{}, nil, err
	}
	out := &resolveOut{Entity: p.Name(), Resolved: rr.Resolved, HunksLeft: rr.Remaining, Conflicts: left, Operation: g.repo.Operation().Message}
	msg := fmt.Sprintf("resolved %s taking %s", p.Name(), take)
	if !rr.Resolved {
		msg = fmt.Sprintf("resolved %s of %s taking %s; %s left", plural(len(in.Hunks), "hunk"), p.Name(), take, plural(rr.Remaining, "hunk"))
	}
	switch {
	case len(left) > 0:
		msg += fmt.Sprintf("; %s still conflicted", plural(len(left), "note"))
	case g.repo.Merging():
		msg += "; every conflict is resolved: git_commit (of every pending change) completes the merge"
	default:
		msg += "; no conflict is left"
	}
	return tool.OK(msg), out, nil
}

// conflictsOut lists the conflicted notes with their hunks' sides (clipped).
func (g *gitCtx) conflictsOut(ctx context.Context) ([]conflictOut, error) {
	list, err := g.repo.Conflicts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]conflictOut, 0, len(list))
	for i, c := range list {
		co := conflictOut{Entity: c.Path.Name(), Path: string(c.Path), Kind: c.Kind, Hunks: c.Hunks}
		if i < maxConflictsShown && c.Hunks > 0 {
			d, err := g.repo.Conflict(ctx, c.Path)
			if err != nil && !errors.Is(err, gitrepo.ErrNotConflicted) {
				return nil, err
			}
			for _, h := range d.Hunks[:min(len(d.Hunks), maxHunksShown)] {
				ho := hunkOut{Number: h.Number, Property: h.Property, Ours: clip(h.Ours), Theirs: clip(h.Theirs)}
				if h.BaseKnown {
					ho.Base = clip(h.Base)
				}
				co.Shown = append(co.Shown, ho)
			}
		}
		out = append(out, co)
	}
	return out, nil
}

// clip cuts s to maxSideShown bytes on a rune boundary, saying so.
func clip(s string) string {
	if len(s) <= maxSideShown {
		return s
	}
	cut := maxSideShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// conflictsNote is what git_status says of conflicts and an operation in progress.
func conflictsNote(list []conflictOut, op gitrepo.Operation) string {
	var parts []string
	if n := len(list); n > 0 {
		hunks := 0
		for _, c := range list {
			hunks += c.Hunks
		}
		parts = append(parts, fmt.Sprintf("%s conflicted (%s): resolve each with git_resolve (ours, theirs or both, per hunk), "+
			"or edit out its markers and take as_edited", plural(n, "note"), plural(hunks, "hunk")))
	}
	if op.Message != "" {
		parts = append(parts, op.Message)
	}
	return strings.Join(parts, "; ")
}
