package gitrepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// ResolveOptions say how to resolve one conflicted path and who resolves it.
type ResolveOptions struct {
	Path vpath.Path
	// Take is the side taken in each conflicting hunk (the changes that merged cleanly
	// stay), or for a whole-file conflict the side's file: ours (this copy's), theirs
	// (the pull's) or both (ours, then theirs; for a file deleted on one side, the
	// side that kept it). TakeAsEdited takes the file as it stands, its markers
	// removed by hand. Ignored when Content is set.
	Take Choice
	// Hunks are the numbers (from 1, see ConflictHunk) of the hunks to resolve; empty
	// resolves them all. Hunks left keep their markers and the path stays conflicted.
	Hunks []int
	// Content, when set, is the file as the person resolved it by hand.
	Content *string
	// IfHash, when set, is the working file's hash the resolution was made from
	// (ConflictDetail.WorkingHash): a file changed since is left alone and the
	// resolution fails with vault.ErrConflict.
	IfHash vault.Hash
	// Actor, Op, Turn and Session are recorded in the journey for the write.
	Actor, Op, Turn, Session string
}

// ResolveResult says what a resolution did.
type ResolveResult struct {
	Path vpath.Path `json:"path"`
	// Resolved is true once no conflict is left: the file is staged, as `git add`
	// stages it, and its unmerged entries are gone.
	Resolved bool `json:"resolved"`
	// Remaining counts the hunks that still hold markers.
	Remaining int `json:"remaining"`
	// Written is true when the working file changed.
	Written bool `json:"written"`
}

// Resolve resolves a conflicted path (see ResolveOptions), writing the working file
// through the vault by compare-and-swap against what it read, and, once nothing of
// the conflict is left, staging it. A merge that waits (MERGE_HEAD) is completed by
// the next commit once every path is resolved. Asking what cannot be done (a hunk
// that does not exist, both sides of a binary file or of one front matter property,
// a text that still holds markers) fails with ErrBadResolution; a path without a
// conflict with ErrNotConflicted.
func (r *Repo) Resolve(ctx context.Context, o ResolveOptions) (ResolveResult, error) {
	res := ResolveResult{Path: o.Path}
	if err := checkPaths([]vpath.Path{o.Path}); err != nil {
		return res, fmt.Errorf("git resolve: %w", err)
	}
	if !content(string(o.Path)) {
		return res, fmt.Errorf("git resolve: %w: %s is Obsidian's, which MemoTree never writes; resolve it with git", ErrInvalidPath, o.Path)
	}
	u, err := r.unmerged()
	if err != nil {
		return res, fmt.Errorf("git resolve: %w", err)
	}
	if u[o.Path] == nil {
		return res, fmt.Errorf("git resolve: %w: %s is not conflicted", ErrNotConflicted, o.Path)
	}
	s, err := r.stageSides(u[o.Path])
	if err != nil {
		return res, fmt.Errorf("git resolve: %w", err)
	}
	data, ok, err := r.readWork(o.Path)
	if err != nil {
		return res, fmt.Errorf("git resolve: %w", err)
	}
	if o.IfHash != "" && (!ok || vault.HashOf(data) != o.IfHash) {
		return res, fmt.Errorf("git resolve: %w: %s changed since it was shown; look at it again", vault.ErrConflict, o.Path)
	}
	cur := version{data: data, ok: ok}
	next, left, err := resolution(o, s, cur)
	if err != nil {
		return res, fmt.Errorf("git resolve %s: %w", o.Path, err)
	}
	res.Remaining = left
	if !next.same(cur) {
		ch := vault.Change{Path: o.Path, Data: next.data, Delete: !next.ok}
		if ok {
			ch.IfHash = vault.HashOf(data)
		} else {
			ch.CreateOnly = true
		}
		wo := vault.WriteOptions{Actor: o.Actor, Op: o.Op, Turn: o.Turn, Session: o.Session}
		if _, err := r.w.Apply(ctx, []vault.Change{ch}, wo); err != nil {
			return res, fmt.Errorf("git resolve: %w", err)
		}
		res.Written = true
	}
	if left > 0 {
		return res, nil
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return res, fmt.Errorf("git resolve: %w", err)
	}
	defer unlock()
	if err := r.stage(ctx, []vpath.Path{o.Path}); err != nil {
		return res, fmt.Errorf("git resolve: stage %s: %w", o.Path, err)
	}
	res.Resolved = true
	return res, nil
}

// resolution computes the resolved file from the sides s and the file now, cur, and
// how many hunks are left.
func resolution(o ResolveOptions, s stageSet, cur version) (version, int, error) {
	markdown := o.Path.IsNote()
	if o.Content != nil {
		if HasConflictMarkers([]byte(*o.Content), false) {
			return version{}, 0, fmt.Errorf("%w: the text still holds conflict markers (<<<<<<<, =======, >>>>>>>); remove them first", ErrBadResolution)
		}
		return version{data: []byte(*o.Content), ok: true}, 0, nil
	}
	switch o.Take {
	case TakeOurs, TakeTheirs, TakeBoth, TakeAsEdited:
	default:
		return version{}, 0, fmt.Errorf("%w: take %q: choose ours, theirs, both or as_edited", ErrBadResolution, o.Take)
	}
	if o.Take == TakeAsEdited {
		if len(o.Hunks) > 0 {
			return version{}, 0, fmt.Errorf("%w: as_edited takes the whole file as it stands, not hunks", ErrBadResolution)
		}
		if cur.ok && !isBinary(cur.data) && HasConflictMarkers(cur.data, false) {
			return version{}, 0, fmt.Errorf("%w: the file still holds %d conflict hunks; take a side for them, or remove their markers first",
				ErrBadResolution, len(conflictRegions(string(cur.data), false)))
		}
		return cur, 0, nil
	}
	var regions []region
	if kindOf(s) == ConflictContent && cur.ok {
		regions = conflictRegions(string(cur.data), false)
	}
	if len(regions) == 0 {
		if len(o.Hunks) > 0 {
			return version{}, 0, fmt.Errorf("%w: it has no hunks to choose from (%s): take ours, theirs or both for the whole file", ErrBadResolution, wholeWhy(s, cur))
		}
		v, err := wholeFile(o.Take, s, markdown)
		return v, 0, err
	}
	for _, h := range o.Hunks {
		if h < 1 || h > len(regions) {
			return version{}, 0, fmt.Errorf("%w: hunk %d does not exist: it has hunks 1 to %d", ErrBadResolution, h, len(regions))
		}
	}
	if o.Take == TakeBoth {
		fmEnd := frontMatterEnd(string(cur.data), regions)
		for i, rg := range regions {
			if (len(o.Hunks) == 0 || containsInt(o.Hunks, i+1)) && rg.start < fmEnd {
				return version{}, 0, fmt.Errorf("%w: hunk %d is the front matter property %q, which holds one value: take ours or theirs, or edit it by hand",
					ErrBadResolution, i+1, propertyOf(rg.ours, rg.theirs))
			}
		}
	}
	text, left := resolveRegions(string(cur.data), regions, o.Hunks, o.Take)
	return version{data: []byte(text), ok: true}, left, nil
}

// wholeFile resolves a conflict with no hunks: one side's file, or for both, the
// three sides merged again with the conflicts keeping both (text), or the side that
// kept a file the other deleted.
func wholeFile(take Choice, s stageSet, markdown bool) (version, error) {
	base, ours, theirs := s[0], s[1], s[2]
	switch take {
	case TakeOurs:
		return ours, nil
	case TakeTheirs:
		return theirs, nil
	}
	switch {
	case !ours.ok:
		return theirs, nil
	case !theirs.ok:
		return ours, nil
	case isBinary(ours.data) || isBinary(theirs.data) || isBinary(base.data):
		return version{}, fmt.Errorf("%w: a binary file cannot hold both versions; take ours or theirs", ErrBadResolution)
	}
	m, _ := mergeText(markdown, string(base.data), string(ours.data), string(theirs.data), markers{ours: "ours", theirs: "theirs"})
	text, _ := resolveRegions(m, conflictRegions(m, false), nil, TakeBoth)
	return version{data: []byte(text), ok: true}, nil
}

// wholeWhy says why a conflict has no hunks.
func wholeWhy(s stageSet, cur version) string {
	switch k := kindOf(s); {
	case k != ConflictContent:
		return strings.ReplaceAll(k, "_", " ")
	case !cur.ok:
		return "its file was removed"
	}
	return "its markers were removed"
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
