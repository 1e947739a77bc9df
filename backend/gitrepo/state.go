package gitrepo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Errors a commit gives when the repository is in the middle of something else.
var (
	// ErrInProgress means a rebase, cherry-pick or revert a git command began awaits
	// its end: committing now would interleave with it.
	ErrInProgress = errors.New("a git operation is in progress")
	// ErrPartialMerge means a merge awaits its commit, which must hold every pending
	// change (git refuses a partial commit during a merge).
	ErrPartialMerge = errors.New("a merge is in progress: commit every pending change to complete it (a commit of some notes cannot complete a merge)")
)

// inProgress are the markers git leaves in its folder while an operation waits for the
// person, and what to say about each.
var inProgress = []struct{ name, kind, what string }{
	{"rebase-merge", "rebase", "a rebase is in progress (.git/rebase-merge): finish it with `git rebase --continue`, or undo it with `git rebase --abort`"},
	{"rebase-apply", "rebase", "a rebase or `git am` is in progress (.git/rebase-apply): finish it with `git rebase --continue` (or `git am --continue`), or undo it with `--abort`"},
	{"CHERRY_PICK_HEAD", "cherry-pick", "a cherry-pick is in progress (.git/CHERRY_PICK_HEAD): finish it with `git cherry-pick --continue`, or undo it with `git cherry-pick --abort`"},
	{"REVERT_HEAD", "revert", "a revert is in progress (.git/REVERT_HEAD): finish it with `git revert --continue`, or undo it with `git revert --abort`"},
}

// commitState says whether a commit may be made now, and whether it completes a
// merge; partial is true when the commit names its paths (checked against the pending
// changes by the caller: naming every one of them is no partial commit).
func (r *Repo) commitState(partial bool) (merging bool, err error) {
	dir := r.gitDir()
	for _, m := range inProgress {
		if _, err := os.Lstat(filepath.Join(dir, m.name)); err == nil {
			return false, fmt.Errorf("%w: %s", ErrInProgress, m.what)
		}
	}
	if !r.merging() {
		return false, nil
	}
	if r.mergeParents() == nil {
		return false, fmt.Errorf("%w: .git/MERGE_HEAD does not name a commit; finish the merge with git, or remove it with `git merge --abort`", ErrInProgress)
	}
	if partial {
		return true, ErrPartialMerge
	}
	return true, nil
}

// Operation is what git is in the middle of, and what finishes it.
type Operation struct {
	// Kind is merge, rebase, cherry-pick or revert; "" when nothing is in progress.
	Kind string `json:"kind"`
	// Message says so and names the git commands that finish or undo it.
	Message string `json:"message"`
}

// mergeInProgress is what Operation says of a merge that awaits its commit.
const mergeInProgress = "a merge is in progress (.git/MERGE_HEAD): resolve its conflicts, then commit every pending change " +
	"to complete it (as `git commit` does), or undo it with `git merge --abort`"

// Operation returns the operation a git command (or a pull) began and left waiting
// for the person, if any.
func (r *Repo) Operation() Operation {
	dir := r.gitDir()
	for _, m := range inProgress {
		if _, err := os.Lstat(filepath.Join(dir, m.name)); err == nil {
			return Operation{Kind: m.kind, Message: m.what}
		}
	}
	if r.merging() {
		return Operation{Kind: "merge", Message: mergeInProgress}
	}
	return Operation{}
}
