package gitrepo

import (
	"container/heap"
	"errors"
	"fmt"
	"time"

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
// newest commit first, each commit marked with the sides that reach it. Commits made
// in the same second (or with a clock behind) may come off the queue before a commit
// of the other side reaches them: such a commit's mark grows later, and it is counted
// again, its parents marked again, with the new mark. The walk stops once every
// commit left to visit is reached from both sides and is older than every commit
// counted for one side alone, so that none of those can still be reached from the
// other (the shared history below is never read). At most maxCounted commits are
// visited.
func (r *Repo) leftRight(ours, theirs plumbing.Hash) (ahead, behind int, err error) {
	flags := map[plumbing.Hash]uint8{ours: fromOurs, theirs: fromTheirs}
	counted := map[plumbing.Hash]uint8{} // the mark each commit was last counted with
	commits := map[plumbing.Hash]*object.Commit{}
	q := &commitQueue{}
	for _, h := range []plumbing.Hash{ours, theirs} {
		c, err := object.GetCommit(r.repo.Storer, h)
		if err != nil {
			return 0, 0, err
		}
		commits[h] = c
		heap.Push(q, c)
	}
	var oldest time.Time // of the commits counted for one side alone
	for visited := 0; q.Len() > 0 && visited < maxCounted; visited++ {
		if q.allBoth(flags) && (oldest.IsZero() || (*q)[0].Committer.When.Before(oldest)) {
			break
		}
		c := heap.Pop(q).(*object.Commit)
		f, was := flags[c.Hash], counted[c.Hash]
		if f == was {
			continue // queued again, and counted since with the mark it has
		}
		ahead, behind = ahead-side(was, fromOurs)+side(f, fromOurs), behind-side(was, fromTheirs)+side(f, fromTheirs)
		counted[c.Hash] = f
		if f != fromOurs|fromTheirs && (oldest.IsZero() || c.Committer.When.Before(oldest)) {
			oldest = c.Committer.When
		}
		for _, p := range c.ParentHashes {
			old, seen := flags[p]
			if seen && old|f == old {
				continue
			}
			flags[p] = old | f
			pc := commits[p]
			if pc == nil {
				if pc, err = object.GetCommit(r.repo.Storer, p); err != nil {
					return 0, 0, err
				}
				commits[p] = pc
			} else if counted[p] == 0 {
				continue // still queued: it is counted with its grown mark when it comes off
			}
			heap.Push(q, pc)
		}
	}
	return ahead, behind, nil
}

// side is 1 when the mark f is the one side s alone, else 0.
func side(f, s uint8) int {
	if f == s {
		return 1
	}
	return 0
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
