package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memotree/memotree/backend/vpath"
)

// State says how a path differs from HEAD.
type State string

// The states of a pending change.
const (
	Added     State = "added"     // staged as new, not in HEAD
	Modified  State = "modified"  // content or mode differs from HEAD
	Deleted   State = "deleted"   // in HEAD, gone from the working tree
	Renamed   State = "renamed"   // staged as a rename
	Untracked State = "untracked" // new in the working tree, never staged
)

// Change is one path with pending changes.
type Change struct {
	Path  vpath.Path `json:"path"`
	State State      `json:"state"`
	// From is, for a rename, the path in HEAD. A rename is two paths to git: commit or
	// discard both From and Path.
	From vpath.Path `json:"from,omitempty"`
}

// Status returns the pending changes of the working tree and the index against HEAD,
// sorted by path, content paths only.
func (r *Repo) Status(ctx context.Context) ([]Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	st, err := wt.Status()
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	out := make([]Change, 0, len(st))
	for name, fs := range st {
		if !content(name) {
			continue
		}
		if s := stateOf(fs); s != "" {
			out = append(out, Change{Path: vpath.Path(name), State: s})
		}
	}
	out, err = r.pairRenames(out)
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// pairRenames folds a deleted path and a new path with the same content into one
// renamed change (exact renames only, as git's status shows them by default when
// both sides are staged).
func (r *Repo) pairRenames(changes []Change) ([]Change, error) {
	deleted, created := 0, 0
	for _, c := range changes {
		switch c.State {
		case Deleted:
			deleted++
		case Untracked, Added:
			created++
		}
	}
	if deleted == 0 || created == 0 {
		return changes, nil
	}
	gone := map[plumbing.Hash]int{} // blob in HEAD → index in changes of its deletion
	_, head, err := r.headTree()
	if err != nil || head.tree == nil {
		return changes, err
	}
	for i, c := range changes {
		if c.State != Deleted {
			continue
		}
		if e, err := head.tree.FindEntry(string(c.Path)); err == nil {
			if _, dup := gone[e.Hash]; !dup {
				gone[e.Hash] = i
			}
		}
	}
	drop := map[int]bool{}
	for i := range changes {
		c := &changes[i]
		if c.State != Untracked && c.State != Added {
			continue
		}
		data, ok, err := r.readWork(c.Path)
		if err != nil || !ok {
			continue
		}
		if j, found := gone[plumbing.ComputeHash(plumbing.BlobObject, data)]; found && !drop[j] {
			c.State, c.From, drop[j] = Renamed, changes[j].Path, true
		}
	}
	out := changes[:0]
	for i, c := range changes {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out, nil
}

// stateOf folds go-git's staging and worktree codes into one State ("" when clean).
func stateOf(fs *git.FileStatus) State {
	switch {
	case fs.Worktree == git.Untracked && fs.Staging == git.Untracked:
		return Untracked
	case fs.Worktree == git.Deleted || fs.Staging == git.Deleted:
		return Deleted
	case fs.Staging == git.Added:
		return Added
	case fs.Worktree == git.Modified || fs.Staging == git.Modified ||
		fs.Worktree == git.Added || fs.Worktree == git.Copied || fs.Staging == git.Copied:
		return Modified
	}
	return ""
}

// treeReader reads files of a tree; its zero value is the empty tree.
type treeReader struct {
	tree *object.Tree
}

// blob is one file of a tree.
type blob struct {
	hash plumbing.Hash
	mode filemode.FileMode
	data []byte
}

// file returns the file at p, or ok false when the tree has none.
func (t *treeReader) file(p vpath.Path) (b blob, ok bool, err error) {
	if t.tree == nil {
		return blob{}, false, nil
	}
	f, err := t.tree.File(string(p))
	if errors.Is(err, object.ErrFileNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return blob{}, false, nil
	}
	if err != nil {
		return blob{}, false, fmt.Errorf("read %s from HEAD: %w", p, err)
	}
	rd, err := f.Reader()
	if err != nil {
		return blob{}, false, fmt.Errorf("read %s from HEAD: %w", p, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return blob{}, false, fmt.Errorf("read %s from HEAD: %w", p, err)
	}
	return blob{hash: f.Hash, mode: f.Mode, data: data}, true, nil
}
