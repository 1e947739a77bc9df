package library

import (
	"context"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
)

// The library is the only door to its git repository: gitrepo writes the working tree
// through it (Apply, Lock), so that what a commit's checkout, a discard or a pull
// writes is indexed like any other write, and tells it when the repository changed
// (GitChanged), so that every change of status is announced from here.

// Git opens the library's git repository. It returns an error wrapping
// gitrepo.ErrNotRepository when the folder is not one. A transaction's fork opens its
// parent's: git sees the vault on disk, never what a script has staged.
func (l *Library) Git() (*gitrepo.Repo, error) {
	if l.parent != nil {
		return l.parent.Git()
	}
	return gitrepo.Open(l.vault.Dir(), l)
}

// InitGit makes the library's folder a git repository (branch main, .memotree/
// ignored) unless it is one already, and opens it.
func (l *Library) InitGit(ctx context.Context) (*gitrepo.Repo, error) {
	if l.parent != nil {
		return l.parent.InitGit(ctx)
	}
	return gitrepo.Init(ctx, l.vault.Dir(), l)
}

// GitChanged publishes event.GitChanged for the library on its bus; gitrepo calls it
// after it changed the repository's references, index or configuration.
func (l *Library) GitChanged() {
	if l.parent != nil {
		l.parent.GitChanged()
		return
	}
	if l.bus != nil {
		l.bus.Publish(event.Event{Topic: event.GitChanged, Data: event.GitChange{Library: l.name}})
	}
}
