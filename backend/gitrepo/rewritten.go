package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrRewritten means the remote's branch was rewritten (force-pushed): commits this
// copy has were taken out of it, and merging would bring them back.
var ErrRewritten = errors.New("the remote's branch was rewritten (force-pushed)")

// checkRewritten refuses a pull whose remote branch no longer holds the commit it
// had at the last fetch (before) while the local branch holds it: the remote's
// history was rewritten, and a merge would put back what was taken out. The
// remote-tracking branch is put back where it was (unless something moved it again
// meanwhile), so the next pull refuses too until the person decides.
func (r *Repo) checkRewritten(ctx context.Context, before *plumbing.Reference, theirs, head plumbing.Hash, tracking plumbing.ReferenceName) error {
	if before == nil || before.Hash() == theirs || head.IsZero() {
		return nil
	}
	old, err := r.repo.CommitObject(before.Hash())
	if err != nil {
		return nil // gone from the store: nothing to compare
	}
	tc, err := r.repo.CommitObject(theirs)
	if err != nil {
		return err
	}
	hc, err := r.repo.CommitObject(head)
	if err != nil {
		return err
	}
	if kept, err := old.IsAncestor(tc); err != nil || kept {
		return err
	}
	if local, err := old.IsAncestor(hc); err != nil || !local {
		return err
	}
	back, now := plumbing.NewHashReference(tracking, before.Hash()), plumbing.NewHashReference(tracking, theirs)
	if err := r.updateRefLocked(ctx, back, now); err != nil {
		return fmt.Errorf("%w; and putting %s back failed: %w", ErrRewritten, tracking.Short(), err)
	}
	short := tracking.Short()
	remote, branch, _ := strings.Cut(short, "/")
	return fmt.Errorf("%w: %s is now %s, which no longer holds %s that this copy has; nothing was merged or changed. "+
		"To take the remote's history (your commits since are dropped; save them first): `git fetch %s` then `git reset --keep %s`. "+
		"To keep yours and replace the remote's: `git push --force-with-lease %s %s`. "+
		"To join both, bringing the removed commits back: `git fetch %s` then `git merge %s`",
		ErrRewritten, short, theirs.String()[:12], before.Hash().String()[:12], remote, short, remote, branch, remote, short)
}
