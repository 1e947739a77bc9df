package uiapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// GitHunkUndo names hunks of a pending change to put back as last committed.
type GitHunkUndo struct {
	// Path and From are the change's path and, for a rename, its old path ("").
	Path string `json:"path"`
	From string `json:"from"`
	// Hunks are hunk numbers of the diff whose Base is given.
	Hunks []int `json:"hunks"`
	// Base is the Base of the diff the numbers come from: a note saved since is not
	// touched (Stale in the result).
	Base string `json:"base"`
}

// GitHunkUndone is what GitUndoHunks did.
type GitHunkUndone struct {
	// Undone are the hunks put back, as they were (for the feedback to the agent).
	Undone []gitrepo.Hunk `json:"undone"`
	// Stale is true when the note changed since the diff was made: nothing was
	// written, and Diff is the note's diff now, to show again.
	Stale bool `json:"stale"`
	// Diff is the change's diff after the undo (or now, when Stale).
	Diff gitrepo.FileDiff `json:"diff"`
}

// GitUndoHunks puts back the chosen hunks of a pending change as last committed, in
// the working tree only; the rest of the change stays pending, in its change set. The
// write is a compare-and-swap on the version the diff was made from: a note saved
// meanwhile (by Obsidian, say) is never overwritten, and the result says so with the
// note's diff now.
func (a *API) GitUndoHunks(libraryName string, req GitHunkUndo) (GitHunkUndone, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, req.Path)
	if err != nil {
		return GitHunkUndone{}, err
	}
	c := gitrepo.Change{Path: p}
	if req.From != "" {
		if c.From, err = vpath.Parse(req.From); err != nil {
			return GitHunkUndone{}, fmt.Errorf("git undo hunks: %w", err)
		}
	}
	r, err := a.repo(l)
	if err != nil {
		return GitHunkUndone{}, err
	}
	res, err := r.UndoHunks(ctx, gitrepo.HunkUndo{Change: c, Hunks: req.Hunks, Base: req.Base, Actor: gitActor})
	if errors.Is(err, gitrepo.ErrStale) {
		now, derr := r.FileDiff(ctx, c)
		if derr != nil {
			return GitHunkUndone{}, derr
		}
		return GitHunkUndone{Undone: []gitrepo.Hunk{}, Stale: true, Diff: now}, nil
	}
	if err != nil {
		return GitHunkUndone{}, err
	}
	return GitHunkUndone{Undone: res.Undone, Diff: res.Diff}, nil
}

// GitBlame says who last changed each line of a note: the commit, its date and
// author, the actor its MemoTree trailers name, and for lines not committed yet the
// change set of the pending change. A note renamed but not committed is blamed
// through its old path.
func (a *API) GitBlame(libraryName, path string) (gitrepo.Blame, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return gitrepo.Blame{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return gitrepo.Blame{}, err
	}
	sets, err := a.changeSets(ctx, l)
	if err != nil {
		return gitrepo.Blame{}, err
	}
	o := gitrepo.BlameOptions{Path: p}
	for _, s := range sets {
		for _, c := range s.Changes {
			if c.Path == p || c.From == p {
				o = gitrepo.BlameOptions{Path: c.Path, From: c.From, ChangeSet: s.ID}
			}
		}
	}
	return r.Blame(ctx, o)
}

// GitCommitDiff returns the change a commit made to a note: the note at path in the
// commit rev against previousPath (the path when "") in its parent, as a blame line
// names them.
func (a *API) GitCommitDiff(libraryName, rev, path, previousPath string) (gitrepo.FileDiff, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return gitrepo.FileDiff{}, err
	}
	var prev vpath.Path
	if previousPath != "" {
		if prev, err = vpath.Parse(previousPath); err != nil {
			return gitrepo.FileDiff{}, fmt.Errorf("git show: %w", err)
		}
	}
	r, err := a.repo(l)
	if err != nil {
		return gitrepo.FileDiff{}, err
	}
	return r.CommitFileDiff(ctx, rev, p, prev)
}
