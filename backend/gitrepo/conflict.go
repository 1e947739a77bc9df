package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/memotree/memotree/backend/vpath"
)

// Errors about conflicts.
var (
	// ErrUnresolved means a commit or pull met conflicts not resolved yet: unmerged
	// index entries, or conflict markers left in a file.
	ErrUnresolved = errors.New("conflicts are not resolved")
	// ErrNotConflicted means a resolution named a path with no conflict.
	ErrNotConflicted = errors.New("no conflict")
	// ErrBadResolution means a resolution cannot be made as asked: a hunk that does
	// not exist, both sides of a binary file or of a front matter property, or a
	// resolved text that still holds conflict markers.
	ErrBadResolution = errors.New("cannot resolve so")
)

// The kinds of conflict, as `git status` names them.
const (
	ConflictContent       = "content"         // both changed the same lines: hunks between markers
	ConflictBinary        = "binary"          // both changed a binary file: one side or the other
	ConflictDeletedByUs   = "deleted_by_us"   // ours deleted it, theirs changed it
	ConflictDeletedByThem = "deleted_by_them" // theirs deleted it, ours changed it
	ConflictAddedByUs     = "added_by_us"     // only ours has it (the base had none)
	ConflictAddedByThem   = "added_by_them"   // only theirs has it (the base had none)
)

// stageSet is a conflict's three sides, as its unmerged index entries hold them:
// the base (stage 1), ours (stage 2) and theirs (stage 3); a side that has no file has
// no entry.
type stageSet [3]version

// stageEntries returns the unmerged index entries of p: one per side that has the
// file. Ours, read from the working tree, is stored as git add stores it.
func (r *Repo) stageEntries(p vpath.Path, s stageSet) ([]*index.Entry, error) {
	var out []*index.Entry
	for i, v := range s {
		if !v.ok {
			continue
		}
		if v.hash.IsZero() {
			rules, err := r.workRules()
			if err != nil {
				return nil, err
			}
			v.data = rules.toGit(string(p), v.data, func() []byte { return nil })
		}
		e, err := r.indexEntry(p, v, index.Stage(i+1))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// unmerged returns the unmerged index entries of every conflicted path, by path:
// [0] the base, [1] ours, [2] theirs, nil for a side without one.
func (r *Repo) unmerged() (map[vpath.Path]*[3]*ientry, error) {
	entries, _, err := r.readEntries()
	if err != nil {
		return nil, err
	}
	out := map[vpath.Path]*[3]*ientry{}
	for i := range entries {
		e := &entries[i]
		if e.stage == 0 || !reported(e.name) {
			continue
		}
		p := vpath.Path(e.name)
		if out[p] == nil {
			out[p] = &[3]*ientry{}
		}
		out[p][e.stage-1] = e
	}
	return out, nil
}

// unmergedPaths lists the conflicted paths, sorted.
func unmergedPaths(u map[vpath.Path]*[3]*ientry) []vpath.Path {
	out := make([]vpath.Path, 0, len(u))
	for p := range u {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// unresolvedErr names the conflicted paths in an ErrUnresolved.
func unresolvedErr(paths []vpath.Path, why string) error {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = string(p)
	}
	const most = 20
	list := strings.Join(names[:min(len(names), most)], ", ")
	if len(names) > most {
		list += fmt.Sprintf(" and %d more", len(names)-most)
	}
	return fmt.Errorf("%w: %s %s; resolve each (the review panel's conflict view, or git_resolve), then commit", ErrUnresolved, list, why)
}

// sides reads the three sides of a conflict from its unmerged entries.
func (r *Repo) stageSides(e *[3]*ientry) (stageSet, error) {
	var s stageSet
	for i, x := range e {
		if x == nil {
			continue
		}
		data, err := r.blobBytes(x.hash)
		if err != nil {
			return s, fmt.Errorf("read stage %d of %s: %w", i+1, x.name, err)
		}
		s[i] = version{data: data, ok: true, hash: x.hash, mode: x.mode}
	}
	return s, nil
}

// kindOf names the conflict of s.
func kindOf(s stageSet) string {
	base, ours, theirs := s[0], s[1], s[2]
	switch {
	case !ours.ok && theirs.ok && base.ok:
		return ConflictDeletedByUs
	case ours.ok && !theirs.ok && base.ok:
		return ConflictDeletedByThem
	case ours.ok && !theirs.ok:
		return ConflictAddedByUs
	case !ours.ok && theirs.ok:
		return ConflictAddedByThem
	case isBinary(ours.data) || isBinary(theirs.data) || isBinary(base.data):
		return ConflictBinary
	}
	return ConflictContent
}

// ConflictSummary is one conflicted path, as a status lists it.
type ConflictSummary struct {
	Path vpath.Path `json:"path"`
	Kind string     `json:"kind"`
	// Hunks counts the conflict regions its file still holds (0 for a whole-file
	// conflict, or a file whose markers were removed by hand).
	Hunks int `json:"hunks"`
}

// Conflicts lists the paths a merge, pull, rebase or stash left conflicted (with
// unmerged index entries), sorted, each with its kind and hunk count.
func (r *Repo) Conflicts(ctx context.Context) ([]ConflictSummary, error) {
	u, err := r.unmerged()
	if err != nil {
		return nil, fmt.Errorf("git conflicts: %w", err)
	}
	out := make([]ConflictSummary, 0, len(u))
	for _, p := range unmergedPaths(u) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := r.stageSides(u[p])
		if err != nil {
			return nil, fmt.Errorf("git conflicts: %w", err)
		}
		c := ConflictSummary{Path: p, Kind: kindOf(s)}
		if c.Kind == ConflictContent {
			if data, ok, err := r.readWork(p); err == nil && ok {
				c.Hunks = len(conflictRegions(string(data), false))
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// stageMerged is an index entry's stage 0, a merged path: go-git's index.Merged is 1,
// the base's stage, so it is not used.
const stageMerged index.Stage = 0
