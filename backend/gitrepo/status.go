package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

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
//
// It works as git does rather than as go-git's Worktree.Status: the index against
// HEAD by tree hashes computed in memory (see indextree.go), the working tree
// against the index by stat data, hashing only files whose stat data changed.
func (r *Repo) Status(ctx context.Context) ([]Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	states, err := r.status(ctx)
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	out := make([]Change, 0, len(states))
	for name, s := range states {
		if content(name) {
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

// status returns the state of every path that differs, before renames are paired.
func (r *Repo) status(ctx context.Context) (map[string]State, error) {
	indexTime := time.Now()
	if fi, err := os.Stat(filepath.Join(r.dir, ".git", "index")); err == nil {
		indexTime = fi.ModTime()
	}
	entries, err := r.readIndexFile()
	if errors.Is(err, errIndexFormat) {
		idx, gerr := r.repo.Storer.Index()
		if gerr != nil {
			return nil, fmt.Errorf("read index: %w", gerr)
		}
		entries, err = fromIndex(idx), nil
	}
	if err != nil {
		return nil, err
	}
	head, err := r.headTreeHash()
	if err != nil {
		return nil, err
	}
	trees := hashIndexTrees(entries)
	states := map[string]State{}
	if err := r.stagedChanges(trees, head, states); err != nil {
		return nil, err
	}
	work, err := r.walkWork(ctx, trees, indexTime)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.stage != 0 {
			work[e.name] = Modified // a conflict: git shows it as unmerged
		}
	}
	for p, s := range work {
		switch staged := states[p]; {
		case staged == Deleted || s == Deleted:
			// removed from the index but on disk (git rm --cached), or gone from disk
			states[p] = Deleted
		case staged == Added:
		case s == Untracked && staged == "":
			states[p] = Untracked
		default:
			states[p] = Modified
		}
	}
	return states, nil
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
