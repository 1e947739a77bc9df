package uiapi

import (
	"context"
	"fmt"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// opGitResolve is the journey's operation for a resolution made in the window.
const opGitResolve = "git_resolve"

// conflictStatus fills the conflicts and the operation in progress of a status.
func conflictStatus(ctx context.Context, r *gitrepo.Repo, out *GitStatus) error {
	out.Operation = r.Operation()
	list, err := r.Conflicts(ctx)
	if err != nil {
		return err
	}
	out.Conflicts = list
	return nil
}

// GitConflict returns what the three-way view shows of a conflicted note: its base,
// ours, theirs and the file now, and its hunks.
func (a *API) GitConflict(libraryName, path string) (gitrepo.ConflictDetail, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return gitrepo.ConflictDetail{}, err
	}
	p, err := vpath.Parse(path)
	if err != nil {
		return gitrepo.ConflictDetail{}, fmt.Errorf("git conflict: %w", err)
	}
	r, err := a.repo(l)
	if err != nil {
		return gitrepo.ConflictDetail{}, err
	}
	return r.Conflict(ctx, p)
}

// GitResolveRequest says how the window resolves a conflicted note: a side for some
// hunks or all of them, or the whole text edited by hand.
type GitResolveRequest struct {
	Path string `json:"path"`
	// Take is ours, theirs, both or as_edited (see gitrepo.ResolveOptions).
	Take string `json:"take"`
	// Hunks are the hunks' numbers; empty takes the side for all of them.
	Hunks []int `json:"hunks"`
	// Content, when set, is the note as the person resolved it by hand.
	Content *string `json:"content,omitempty"`
	// IfHash is the working hash the view showed (ConflictDetail.WorkingHash): a note
	// changed since is not overwritten.
	IfHash string `json:"if_hash"`
}

// GitResolve resolves a conflicted note as the person chose in the three-way view; a
// choice that cannot be made (a front matter property kept twice, a hunk gone) is an
// error saying so, and nothing changes.
func (a *API) GitResolve(libraryName string, req GitResolveRequest) (gitrepo.ResolveResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return gitrepo.ResolveResult{}, err
	}
	p, err := vpath.Parse(req.Path)
	if err != nil {
		return gitrepo.ResolveResult{}, fmt.Errorf("git resolve: %w", err)
	}
	r, err := a.repo(l)
	if err != nil {
		return gitrepo.ResolveResult{}, err
	}
	res, err := r.Resolve(ctx, gitrepo.ResolveOptions{Path: p, Take: gitrepo.Choice(req.Take), Hunks: req.Hunks, Content: req.Content,
		IfHash: vault.Hash(req.IfHash), Actor: gitActor, Op: opGitResolve})
	return res, err
}
