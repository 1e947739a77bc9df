package uiapi

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// gitTimeout bounds one git operation of the window.
const gitTimeout = 2 * time.Minute

// The journey records the window's git writes under this actor and these operations.
const (
	gitActor     = "user"
	opGitDiscard = "git_discard"
	opGitRestore = "git_restore"
)

// GitStatus is what the source-control panel shows of a library.
type GitStatus struct {
	Library string `json:"library"`
	// IsRepo is false when the library's folder is not a git repository; the panel
	// then offers GitInit, and the other fields are empty.
	IsRepo bool `json:"is_repo"`
	// Branch is the checked-out branch, "" when HEAD is detached.
	Branch string `json:"branch"`
	// Head is the hash of the last commit, "" before the first one.
	Head string `json:"head"`
	// ChangeSets are the pending changes grouped by who made them, newest first.
	ChangeSets []gitrepo.ChangeSet `json:"change_sets"`
	// Total counts the pending changes.
	Total int `json:"total"`
	// Remotes are the repository's remotes, origin first; push and pull use the first.
	Remotes []gitrepo.Remote `json:"remotes"`
	// Merging is true while a pull's conflicts await the person's commit.
	Merging bool `json:"merging"`
	// Conflicts are the notes a pull (MemoTree's or git's) left conflicted.
	Conflicts []gitrepo.ConflictSummary `json:"conflicts"`
	// Operation is what git is in the middle of, and what finishes it.
	Operation gitrepo.Operation `json:"operation"`
}

// GitStatus returns a library's pending changes grouped by change set.
func (a *API) GitStatus(libraryName string) (GitStatus, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitStatus{}, err
	}
	out := GitStatus{Library: l.Name(), ChangeSets: []gitrepo.ChangeSet{}, Remotes: []gitrepo.Remote{}, Conflicts: []gitrepo.ConflictSummary{}}
	r, err := a.repo(l)
	if errors.Is(err, gitrepo.ErrNotRepository) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	out.IsRepo = true
	out.Branch, out.Head = r.Head()
	out.Merging = r.Merging()
	if err := conflictStatus(ctx, r, &out); err != nil {
		return out, err
	}
	if out.Remotes, err = r.Remotes(); err != nil {
		return out, err
	}
	if out.Remotes == nil {
		out.Remotes = []gitrepo.Remote{}
	}
	for i := range out.Remotes {
		out.Remotes[i].URL = redactURL(out.Remotes[i].URL) // a token written into the address stays out of the window
	}
	sets, err := a.changeSets(ctx, l)
	if err != nil {
		return out, err
	}
	out.ChangeSets = sets
	for _, s := range sets {
		out.Total += len(s.Changes)
	}
	return out, nil
}

// GitDiff returns the diff of one pending change against the last commit, with the
// changed words of each edited line marked; from is the old path of a rename, or "".
func (a *API) GitDiff(libraryName, path, from string) (gitrepo.FileDiff, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return gitrepo.FileDiff{}, err
	}
	// Any path the panel lists (Obsidian's settings included); the repository refuses
	// .git and MemoTree's own folder.
	p, err := vpath.Parse(path)
	if err != nil {
		return gitrepo.FileDiff{}, fmt.Errorf("git diff: %w", err)
	}
	c := gitrepo.Change{Path: p}
	if from != "" {
		if c.From, err = vpath.Parse(from); err != nil {
			return gitrepo.FileDiff{}, fmt.Errorf("git diff: %w", err)
		}
	}
	r, err := a.repo(l)
	if err != nil {
		return gitrepo.FileDiff{}, err
	}
	return r.FileDiff(ctx, c)
}

// GitCommitRequest says what the panel commits.
type GitCommitRequest struct {
	// Paths are the changes to commit (their Change.Path); empty commits them all.
	Paths   []string `json:"paths"`
	Message string   `json:"message"`
	// Tag, when not empty, tags the new commit.
	Tag string `json:"tag"`
	// TagDescription, with a Tag, makes it an annotated tag carrying the text (as
	// `git tag -a` does); without a Tag it is refused.
	TagDescription string `json:"tag_description,omitempty"`
}

// GitCommitResult describes a commit the panel made.
type GitCommitResult struct {
	Hash     string            `json:"hash"`
	Paths    []string          `json:"paths"`
	Trailers map[string]string `json:"trailers"`
	// NeedsIdentity is true when nothing was committed because git's configuration
	// names nobody to sign with; Refused says so, and GitSetIdentity sets one.
	NeedsIdentity bool   `json:"needs_identity"`
	Refused       string `json:"refused,omitempty"`
	// Warnings name the pending changes a commit of every change left out (a file
	// whose name holds a backslash), each with why.
	Warnings []string `json:"warnings"`
}

// GitCommit commits the chosen pending changes (both sides of a rename) with the
// message, trailers naming the actors and turns that made them, and an optional tag.
func (a *API) GitCommit(libraryName string, req GitCommitRequest) (GitCommitResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	if strings.TrimSpace(req.Message) == "" {
		return GitCommitResult{}, errors.New("git commit: write a commit message first")
	}
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitCommitResult{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return GitCommitResult{}, err
	}
	sets, err := a.changeSets(ctx, l)
	if err != nil {
		return GitCommitResult{}, err
	}
	paths := make([]vpath.Path, len(req.Paths))
	for i, p := range req.Paths {
		paths[i] = vpath.Path(p)
	}
	res, err := r.CommitPending(ctx, sets, gitrepo.PendingCommit{Paths: paths, Message: req.Message, Tag: strings.TrimSpace(req.Tag), TagMessage: strings.TrimSpace(req.TagDescription)})
	if errors.Is(err, gitrepo.ErrNotPending) {
		return GitCommitResult{}, fmt.Errorf("%w (refresh the panel)", err)
	}
	if errors.Is(err, gitrepo.ErrNoIdentity) {
		return GitCommitResult{Paths: []string{}, Trailers: map[string]string{}, NeedsIdentity: true, Refused: err.Error(), Warnings: []string{}}, nil
	}
	if err != nil && res.Hash.IsZero() {
		if errors.Is(err, gitrepo.ErrNothingToCommit) && len(res.Warnings) > 0 {
			err = fmt.Errorf("%w: %s", err, strings.Join(res.Warnings, "; "))
		}
		return GitCommitResult{}, err
	}
	return GitCommitResult{Hash: res.Hash.String(), Paths: pathStrings(gitrepo.Paths(res.Changes)), Trailers: res.Trailers,
		Warnings: append([]string{}, res.Warnings...)}, err
}

// GitIdentity is who signs a library's commits, as git's configuration says.
type GitIdentity struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	// Missing is true when git's configuration names nobody: a commit is refused.
	Missing bool `json:"missing"`
}

// GitSetIdentity sets the name and email that sign commits in a library's repository
// (user.name and user.email of its .git/config, as `git config` sets them) and
// returns the identity git now finds.
func (a *API) GitSetIdentity(libraryName, name, email string) (GitIdentity, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitIdentity{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return GitIdentity{}, err
	}
	if err := r.SetIdentity(name, email); err != nil {
		return GitIdentity{}, err
	}
	id, err := r.Identity()
	if err != nil {
		return GitIdentity{Missing: true}, err
	}
	return GitIdentity{Name: id.Committer.Name, Email: id.Committer.Email}, nil
}

// GitDiscard throws away the pending changes of the chosen paths: each comes back as
// last committed, and a file never committed is deleted. The window asks the person
// first. It returns the paths that changed on disk.
func (a *API) GitDiscard(libraryName string, paths []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	if len(paths) == 0 {
		return nil, errors.New("git discard: choose the notes whose changes to discard")
	}
	if slices.Contains(paths, string(vault.JourneyPath)) {
		return nil, fmt.Errorf("git discard: %s is the append-only log of every operation; commit it rather than discard it", vault.JourneyPath)
	}
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, err
	}
	r, err := a.repo(l)
	if err != nil {
		return nil, err
	}
	changes, err := a.status(ctx, l)
	if err != nil {
		return nil, err
	}
	chosen, err := pick([]gitrepo.ChangeSet{{Changes: changes}}, paths)
	if err != nil {
		return nil, fmt.Errorf("git discard: %w", err)
	}
	all := gitrepo.Paths(chosen)
	done, err := r.Discard(ctx, gitrepo.DiscardOptions{Paths: all, RemoveUntracked: true, Actor: gitActor, Op: opGitDiscard})
	if err != nil {
		return pathStrings(done), err
	}
	return pathStrings(done), nil
}

// GitLog returns up to limit commits that changed path (every commit when path is ""),
// newest first.
func (a *API) GitLog(libraryName, path string, limit int) ([]gitrepo.Commit, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, err
	}
	var p vpath.Path
	if path != "" {
		if _, p, err = a.resolvePath(libraryName, path); err != nil {
			return nil, err
		}
	}
	r, err := a.repo(l)
	if err != nil {
		return nil, err
	}
	out, err := r.Log(ctx, p, max(limit, 0))
	if out == nil {
		out = []gitrepo.Commit{}
	}
	return out, err
}

// GitRevision is a note's content at a revision.
type GitRevision struct {
	Path string `json:"path"`
	Rev  string `json:"rev"`
	// Exists is false when the note did not exist at that revision.
	Exists  bool   `json:"exists"`
	Content string `json:"content"`
}

// GitShow returns a note's content at a revision (a commit hash, a tag, HEAD~1...).
func (a *API) GitShow(libraryName, path, rev string) (GitRevision, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return GitRevision{}, err
	}
	r, err := a.repo(l)
	if err != nil {
		return GitRevision{}, err
	}
	out := GitRevision{Path: string(p), Rev: rev}
	b, err := r.Show(ctx, p, rev)
	if errors.Is(err, gitrepo.ErrNotInRevision) {
		return out, nil
	}
	if err == nil {
		err = tooBig(p, int64(len(b)))
	}
	if err != nil {
		return out, err
	}
	out.Exists, out.Content = true, string(b)
	return out, nil
}

// GitRestore brings a note back as it was at a revision, as a pending change to review
// and commit. It reports whether the note changed.
func (a *API) GitRestore(libraryName, path, rev string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, p, err := a.resolvePath(libraryName, path)
	if err != nil {
		return false, err
	}
	r, err := a.repo(l)
	if err != nil {
		return false, err
	}
	changed, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: p, Rev: rev, Actor: gitActor, Op: opGitRestore})
	return changed, err
}

// GitInit makes a library's folder a git repository (branch main, .memotree/ ignored)
// unless it is one already, and returns its status.
func (a *API) GitInit(libraryName string) (GitStatus, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GitStatus{}, err
	}
	if _, err := l.InitGit(ctx); err != nil {
		return GitStatus{}, err
	}
	a.ws.WatchGit(l.Name())
	return a.GitStatus(l.Name())
}

// repo returns a library's repository; its status comes from a.status.
func (a *API) repo(l *library.Library) (*gitrepo.Repo, error) {
	t, err := a.tracker(l)
	if err != nil {
		return nil, err
	}
	return t.Repo(), nil
}

// tracker returns the workspace's status tracker of a library's repository.
func (a *API) tracker(l *library.Library) (*gitrepo.Tracker, error) {
	t, err := a.ws.GitTracker(l.Name())
	if errors.Is(err, gitrepo.ErrNotRepository) {
		return nil, fmt.Errorf("library %s (%s) is %w yet: initialise one from the git panel", l.Name(), l.Vault().Dir(), err)
	}
	return t, err
}

// status returns a library's pending changes through its tracker: after an edit in a
// watched workspace, only the edited files are examined again.
func (a *API) status(ctx context.Context, l *library.Library) ([]gitrepo.Change, error) {
	t, err := a.tracker(l)
	if err != nil {
		return nil, err
	}
	return t.Status(ctx)
}

// changeSets reads the status and the journey's tail and groups the one by the other.
func (a *API) changeSets(ctx context.Context, l *library.Library) ([]gitrepo.ChangeSet, error) {
	t, err := a.tracker(l)
	if err != nil {
		return []gitrepo.ChangeSet{}, err
	}
	sets, err := t.ChangeSets(ctx, l.Vault())
	if sets == nil {
		sets = []gitrepo.ChangeSet{}
	}
	return sets, err
}

// pick returns the changes of sets named by paths (by their path or a rename's old
// path), or every change when paths is empty. A path without a pending change is an
// error naming it.
func pick(sets []gitrepo.ChangeSet, paths []string) ([]gitrepo.Change, error) {
	ps := make([]vpath.Path, len(paths))
	for i, p := range paths {
		ps[i] = vpath.Path(p)
	}
	chosen, missing := gitrepo.PickChanges(sets, ps)
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s has no pending change (refresh the panel)", missing[0])
	}
	return chosen, nil
}

func pathStrings(ps []vpath.Path) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = string(p)
	}
	return out
}
