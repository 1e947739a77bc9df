package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Errors of Show and Restore.
var (
	// ErrNoRevision means a revision (commit hash, branch, tag, HEAD~2...) does not
	// name a commit of the repository.
	ErrNoRevision = errors.New("no such revision")
	// ErrNotInRevision means the path does not exist in that revision.
	ErrNotInRevision = errors.New("not in that revision")
)

// IsRepository reports whether dir is the root of a git repository (a .git folder, or
// the .git file of a linked worktree).
func IsRepository(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".git"))
	if err != nil {
		return false
	}
	_, err = git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	return err == nil
}

// Show returns the content of path at a revision: anything git rev-parse accepts that
// names a commit (a full or abbreviated hash, HEAD, HEAD~1, a branch or a tag).
func (r *Repo) Show(ctx context.Context, path vpath.Path, rev string) ([]byte, error) {
	if err := checkPaths([]vpath.Path{path}); err != nil {
		return nil, fmt.Errorf("git show %s:%s: %w", rev, path, err)
	}
	b, ok, err := r.fileAt(ctx, path, rev)
	if err != nil {
		return nil, fmt.Errorf("git show %s:%s: %w", rev, path, err)
	}
	if !ok {
		return nil, fmt.Errorf("git show %s:%s: %w", rev, path, ErrNotInRevision)
	}
	return b, nil
}

// fileAt reads path in the tree of the commit rev names; ok is false when the tree
// has no such file.
func (r *Repo) fileAt(ctx context.Context, path vpath.Path, rev string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if err := checkRevision(rev); err != nil {
		return nil, false, err
	}
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, false, fmt.Errorf("%w: %s", ErrNoRevision, rev)
	}
	c, err := r.repo.CommitObject(*h)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %s is not a commit", ErrNoRevision, rev)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, false, fmt.Errorf("read tree of %s: %w", rev, err)
	}
	b, ok, err := (&treeReader{tree: t}).file(path)
	return b.data, ok, err
}

// RestoreOptions say which note to bring back from which revision, and who asks.
type RestoreOptions struct {
	// Path is the note to restore.
	Path vpath.Path
	// Rev names the commit to take it from (see Show).
	Rev string
	// Actor and Op are recorded in the journey for the write.
	Actor, Op string
}

// Restore writes the content path had at a revision into the working tree, through the
// vault (atomic, journaled, compare-and-swap against what it read just before), and
// leaves it there as a pending change to review and commit; nothing is staged. A path
// the revision does not have fails with ErrNotInRevision. It reports whether the file
// changed.
func (r *Repo) Restore(ctx context.Context, o RestoreOptions) (bool, error) {
	if err := checkPaths([]vpath.Path{o.Path}); err != nil {
		return false, fmt.Errorf("git restore %s: %w", o.Path, err)
	}
	old, ok, err := r.fileAt(ctx, o.Path, o.Rev)
	if err != nil {
		return false, fmt.Errorf("git restore %s from %s: %w", o.Path, o.Rev, err)
	}
	if !ok {
		return false, fmt.Errorf("git restore %s from %s: %w", o.Path, o.Rev, ErrNotInRevision)
	}
	cur, exists, err := r.readWork(o.Path)
	if err != nil {
		return false, fmt.Errorf("git restore %s: %w", o.Path, err)
	}
	if exists && string(cur) == string(old) {
		return false, nil
	}
	ch := vault.Change{Path: o.Path, Data: old, CreateOnly: !exists}
	if exists {
		ch.IfHash = vault.HashOf(cur)
	}
	if _, err := r.w.Apply(ctx, []vault.Change{ch}, vault.WriteOptions{Actor: o.Actor, Op: o.Op}); err != nil {
		return false, fmt.Errorf("git restore %s from %s: %w", o.Path, o.Rev, err)
	}
	return true, nil
}

// Head returns the checked-out branch ("" when HEAD is detached) and the hash of the
// last commit ("" before the first commit).
func (r *Repo) Head() (branch, hash string) {
	ref, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", ""
	}
	if ref.Type() == plumbing.SymbolicReference {
		branch = ref.Target().Short()
	}
	if h, err := r.repo.ResolveRevision(plumbing.Revision("HEAD")); err == nil {
		hash = h.String()
	}
	return branch, hash
}

// checkRevision refuses what is not a plain commit name: a revision is a hash, HEAD, a
// branch or a tag, followed by any number of ~N and ^N. go-git's parser also reads
// "HEAD:path" (and resolved it to HEAD, so the caller's path argument was shown
// instead), ranges, searches and reflog entries; none names one commit here.
func checkRevision(rev string) error {
	if rev == "" {
		return fmt.Errorf("%w: empty revision", ErrNoRevision)
	}
	name := revisionName(rev)
	bad := name == "" || len(rev) > 256 || strings.HasPrefix(name, "-") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/") ||
		strings.Contains(name, "..") || strings.Contains(name, "//") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".lock")
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("/-_.", c) || c > 0x7f && c != 0xfffd) {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("%w: %q is not a revision (give a commit hash, HEAD, a branch or a tag, optionally with ~N or ^N; a path after a colon, a range or a search are not taken)", ErrNoRevision, rev)
	}
	return nil
}

// revisionName returns rev without its trailing ~N and ^N steps ("main~2^" → "main").
func revisionName(rev string) string {
	for {
		i := len(rev)
		for i > 0 && '0' <= rev[i-1] && rev[i-1] <= '9' {
			i--
		}
		if i == 0 || rev[i-1] != '~' && rev[i-1] != '^' {
			return rev
		}
		rev = rev[:i-1]
	}
}
