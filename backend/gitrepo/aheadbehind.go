package gitrepo

import (
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
	a, err := r.ancestors(ours.Hash())
	if err != nil {
		return d, fmt.Errorf("ahead and behind: %w", err)
	}
	b, err := r.ancestors(theirs.Hash())
	if err != nil {
		return d, fmt.Errorf("ahead and behind: %w", err)
	}
	for h := range a {
		if !b[h] {
			d.Ahead++
		}
	}
	for h := range b {
		if !a[h] {
			d.Behind++
		}
	}
	return d, nil
}

// ancestors returns the commits reachable from h, h included, up to maxCounted.
func (r *Repo) ancestors(h plumbing.Hash) (map[plumbing.Hash]bool, error) {
	seen := map[plumbing.Hash]bool{h: true}
	queue := []plumbing.Hash{h}
	for len(queue) > 0 && len(seen) < maxCounted {
		c, err := object.GetCommit(r.repo.Storer, queue[0])
		queue = queue[1:]
		if err != nil {
			return nil, err
		}
		for _, p := range c.ParentHashes {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return seen, nil
}
