package autosync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// Target is the repository a Syncer keeps backed up.
type Target interface {
	// Pull brings in the remote's commits (gitrepo.Repo.Pull).
	Pull(ctx context.Context) (gitrepo.PullResult, error)
	// Push sends the branch to the remote (gitrepo.Repo.Push).
	Push(ctx context.Context) (gitrepo.PushResult, error)
	// Divergence compares the branch with the remote's copy as last fetched.
	Divergence() (gitrepo.Divergence, error)
	// Waiting says why the repository waits for the person (conflicts to resolve, a
	// merge or rebase in progress), "" when it does not: a sync then does nothing.
	Waiting(ctx context.Context) (string, error)
	// CommitOwn commits the person's own pending changes, the message made from the
	// template, and returns the paths committed (none: nothing to commit).
	CommitOwn(ctx context.Context, template string, now time.Time) ([]vpath.Path, error)
}

// GitTarget is a Target over a gitrepo.Repo.
type GitTarget struct {
	// Tracker keeps the repository's status (its Repo is the repository).
	Tracker *gitrepo.Tracker
	// Journal reads the journey, which says who made each pending change.
	Journal gitrepo.Journal
	// Options returns how to reach the remote (which remote, the credentials), read
	// anew for each push and pull.
	Options func() (gitrepo.SyncOptions, error)
}

// Pull pulls with the current options.
func (g GitTarget) Pull(ctx context.Context) (gitrepo.PullResult, error) {
	o, err := g.Options()
	if err != nil {
		return gitrepo.PullResult{}, err
	}
	return g.Tracker.Repo().Pull(ctx, o)
}

// Push pushes with the current options.
func (g GitTarget) Push(ctx context.Context) (gitrepo.PushResult, error) {
	o, err := g.Options()
	if err != nil {
		return gitrepo.PushResult{}, err
	}
	return g.Tracker.Repo().Push(ctx, o)
}

// Divergence compares the branch with the options' remote.
func (g GitTarget) Divergence() (gitrepo.Divergence, error) {
	o, err := g.Options()
	if err != nil {
		return gitrepo.Divergence{}, err
	}
	return g.Tracker.Repo().AheadBehind(o.Remote)
}

// Waiting names the conflicts or the operation that keeps the repository waiting.
func (g GitTarget) Waiting(ctx context.Context) (string, error) {
	r := g.Tracker.Repo()
	list, err := r.Conflicts(ctx)
	if err != nil {
		return "", err
	}
	if n := len(list); n > 0 {
		return fmt.Sprintf("%d conflicted notes wait to be resolved (%s first)", n, list[0].Path), nil
	}
	if op := r.Operation(); op.Kind != "" {
		return op.Message, nil
	}
	return "", nil
}

// ownActors are the change sets whose changes are the person's own: made in the
// window, or outside MemoTree (their editor, Obsidian).
var ownActors = map[string]bool{"user": true, gitrepo.OutsideID: true}

// CommitOwn commits the pending changes of the person's own change sets.
func (g GitTarget) CommitOwn(ctx context.Context, template string, now time.Time) ([]vpath.Path, error) {
	sets, err := g.Tracker.ChangeSets(ctx, g.Journal)
	if err != nil {
		return nil, err
	}
	var paths []vpath.Path
	var names []string
	for _, s := range sets {
		if !ownActors[s.Actor] {
			continue
		}
		kept, _ := gitrepo.LeaveOutUnnamable(s.Changes)
		for _, c := range kept {
			paths = append(paths, c.Path)
			names = append(names, c.Path.Name())
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	res, err := g.Tracker.Repo().CommitPending(ctx, sets, gitrepo.PendingCommit{Paths: paths, Message: Message(template, now, names)})
	if errors.Is(err, gitrepo.ErrNothingToCommit) {
		return nil, nil
	}
	if err != nil && res.Hash.IsZero() {
		return nil, err
	}
	return gitrepo.Paths(res.Changes), nil
}
