package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memotree/memotree/backend/vpath"
)

// ErrNotPending means a path named for a commit has no pending change.
var ErrNotPending = errors.New("no pending change")

// PendingCommit is a commit of pending changes, as the review panel and the git_commit
// tool make it.
type PendingCommit struct {
	// Paths name the changes to commit, each by its path or, for a rename, its old
	// path; empty commits every pending change listed.
	Paths   []vpath.Path
	Message string
	// Tag, when set, tags the new commit; with TagMessage the tag is an annotated one
	// carrying it.
	Tag        string
	TagMessage string
	// Author, when set, is the commit's author (see CommitOptions.Author).
	Author *Signature
}

// CommitResult is what a commit of pending changes committed.
type CommitResult struct {
	Hash plumbing.Hash
	// Changes are the changes committed (a rename is one change, both paths
	// committed).
	Changes []Change
	// Trailers are those the message carries: who made the changes (see Trailers).
	Trailers map[string]string
	// Signed is who signed the commit: its author and committer.
	Signed Identity
	// Warnings name the pending changes a commit of every change left out (see
	// LeaveOutUnnamable).
	Warnings []string
}

// CommitPending commits the pending changes of sets that o names, and nothing else:
// both paths of a rename, with trailers naming the actors and turns that made the
// changes (not whoever asks for the commit), so that a commit the agent makes of the
// person's edits says they are the person's. sets are the change sets the caller
// listed (Tracker.ChangeSets or Repo.ChangeSets): a change made after they were read
// is not committed unless named. A named path without a pending change is an error
// wrapping ErrNotPending, and nothing is committed.
func (r *Repo) CommitPending(ctx context.Context, sets []ChangeSet, o PendingCommit) (CommitResult, error) {
	chosen, missing := PickChanges(sets, o.Paths)
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, p := range missing {
			names[i] = string(p)
		}
		return CommitResult{}, fmt.Errorf("git commit: %w: %s", ErrNotPending, strings.Join(names, ", "))
	}
	var warnings []string
	if len(o.Paths) == 0 {
		chosen, warnings = LeaveOutUnnamable(chosen)
	}
	if len(chosen) == 0 {
		return CommitResult{Warnings: warnings}, fmt.Errorf("git commit: %w", ErrNothingToCommit)
	}
	paths := Paths(chosen)
	trailers := Trailers(sets, paths)
	h, who, err := r.commit(ctx, CommitOptions{Message: o.Message, Paths: paths, Tag: o.Tag, TagMessage: o.TagMessage,
		Author: o.Author, Trailers: trailers})
	if err != nil && h.IsZero() {
		return CommitResult{Warnings: warnings}, err
	}
	return CommitResult{Hash: h, Changes: chosen, Trailers: trailers, Signed: who, Warnings: warnings}, err
}

// LeaveOutUnnamable returns the changes a commit of every pending change takes: those
// whose paths MemoTree commits (see checkPaths), with a warning for each other one,
// naming it and why. Such a change (a file made outside MemoTree whose name holds a
// backslash, say) stays pending; naming it in a commit is refused with the same reason.
func LeaveOutUnnamable(changes []Change) (kept []Change, warnings []string) {
	kept = changes[:0:0]
	for _, c := range changes {
		paths := []vpath.Path{c.Path}
		if c.From != "" {
			paths = append(paths, c.From)
		}
		if err := checkPaths(paths); err != nil {
			warnings = append(warnings, "left out of the commit: "+strings.TrimPrefix(err.Error(), ErrInvalidPath.Error()+": "))
			continue
		}
		kept = append(kept, c)
	}
	return kept, warnings
}

// PickChanges returns the changes of sets that paths name (by their path or a
// rename's old path), each once, in the order named, and the paths that name none;
// with no paths, every change.
func PickChanges(sets []ChangeSet, paths []vpath.Path) (chosen []Change, missing []vpath.Path) {
	var all []Change
	for _, s := range sets {
		all = append(all, s.Changes...)
	}
	if len(paths) == 0 {
		return all, nil
	}
	seen := map[vpath.Path]bool{}
	for _, p := range paths {
		found := false
		for _, c := range all {
			if c.Path == p || (c.From != "" && c.From == p) {
				found = true
				if !seen[c.Path] {
					seen[c.Path] = true
					chosen = append(chosen, c)
				}
				break
			}
		}
		if !found {
			missing = append(missing, p)
		}
	}
	return chosen, missing
}
