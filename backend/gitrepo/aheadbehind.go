package gitrepo

import (
	"container/heap"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxCounted bounds the commits AheadBehind walks on each side.
const maxCounted = 100_000

// Divergence is how the checked-out branch stands against the remote's copy of it as
// last fetched (refs/remotes/<remote>/<branch>), as `git status` says it.
type Divergence struct {
	// Tracked is false when there is no remote copy of the branch yet (never pushed or
	// fetched): Ahead and Behind are then 0.
	Tracked bool `json:"tracked"`
	// Ahead counts the commits the branch has that the remote's copy lacks: a push
	// sends them. Behind counts the other way: a pull brings them in.
	Ahead  int `json:"ahead"`
	Behind int `json:"behind"`
}

// AheadBehind compares the checked-out branch with the remote's copy of it; remote ""
// is origin. It reads only the repository (no fetch).
func (r *Repo) AheadBehind(remote string) (Divergence, error) {
	if remote == "" {
		remote = "origin"
	}
	br, err := r.branch()
	if err != nil {
		return Divergence{}, fmt.Errorf("ahead and behind: %w", err)
	}
	theirs, err := r.repo.Reference(plumbing.NewRemoteReferenceName(remote, br.Short()), true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return Divergence{}, nil
	}
	if err != nil {
		return Divergence{}, fmt.Errorf("ahead and behind: %w", err)
	}
	d := Divergence{Tracked: true}
	ours, err := r.repo.Reference(br, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return d, nil // no commit yet
	}
	if err != nil {
		return d, fmt.Errorf("ahead and behind: %w", err)
	}
	if ours.Hash() == theirs.Hash() {
		return d, nil
	}
	if d.Ahead, d.Behind, err = r.leftRight(ours.Hash(), theirs.Hash()); err != nil {
		return d, fmt.Errorf("ahead and behind: %w", err)
	}
	return d, nil
}

// Which side reaches a commit, in leftRight's walk.
const (
	fromOurs   = 1
	fromTheirs = 2
)

// leftRight counts the commits reachable from ours only and from theirs only, as
// `git rev-list --left-right --count` does: both histories are walked together,
// newest commit first, and the walk stops once every commit left to visit is reached
// from both sides (the shared history below is never read). At most maxCounted
// commits are visited.
func (r *Repo) leftRight(ours, theirs plumbing.Hash) (ahead, behind int, err error) {
	flags := map[plumbing.Hash]uint8{ours: fromOurs, theirs: fromTheirs}
	q := &commitQueue{}
	for _, h := range []plumbing.Hash{ours, theirs} {
		c, err := object.GetCommit(r.repo.Storer, h)
		if err != nil {
			return 0, 0, err
		}
		heap.Push(q, c)
	}
	for visited := 0; q.Len() > 0 && visited < maxCounted && !q.allBoth(flags); visited++ {
		c := heap.Pop(q).(*object.Commit)
		f := flags[c.Hash]
		switch f {
		case fromOurs:
			ahead++
		case fromTheirs:
			behind++
		}
		for _, p := range c.ParentHashes {
			old, seen := flags[p]
			flags[p] = old | f
			if seen {
				continue
			}
			pc, err := object.GetCommit(r.repo.Storer, p)
			if err != nil {
				return 0, 0, err
			}
			heap.Push(q, pc)
		}
	}
	return ahead, behind, nil
}

// commitQueue orders commits newest first (by committer time), a heap.
type commitQueue []*object.Commit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].Committer.When.After(q[j].Committer.When)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*object.Commit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// allBoth reports whether every queued commit is reached from both sides.
func (q commitQueue) allBoth(flags map[plumbing.Hash]uint8) bool {
	for _, c := range q {
		if flags[c.Hash] != fromOurs|fromTheirs {
			return false
		}
	}
	return true
}
