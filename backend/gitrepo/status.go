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
	// Conflicted is a path with unmerged index entries: a merge (a pull's, or git's),
	// a rebase, a cherry-pick or a stash left both sides of a conflict to resolve.
	Conflicted State = "conflicted"
)

// Change is one path with pending changes.
type Change struct {
	Path  vpath.Path `json:"path"`
	State State      `json:"state"`
	// From is, for a rename or move (edited or not), the path in HEAD. A rename is two
	// paths to git: commit or discard both From and Path.
	From vpath.Path `json:"from,omitempty"`
}

// Paths returns the paths git must be given for changes: both sides of each rename.
func Paths(changes []Change) []vpath.Path {
	out := make([]vpath.Path, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.Path)
		if c.From != "" {
			out = append(out, c.From)
		}
	}
	return out
}

// Status returns the pending changes of the working tree and the index against HEAD,
// sorted by path, content paths only.
//
// It works as git does rather than as go-git's Worktree.Status: the index against
// HEAD by tree hashes computed in memory (see indextree.go), the working tree
// against the index by stat data, hashing only files whose stat data changed. A
// Tracker keeps the answer current from the watcher's paths instead.
func (r *Repo) Status(ctx context.Context) ([]Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	snap, err := r.snapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	return r.changes(snap, snap.merged())
}

// changes turns states into the sorted list of content changes, renames paired. A
// submodule's own entry (its gitlink) is not one: git records which commit of it the
// vault uses, which MemoTree leaves to git.
func (r *Repo) changes(snap *snapshot, states map[string]State) ([]Change, error) {
	out := make([]Change, 0, len(states))
	for name, s := range states {
		if reported(name) && !snap.gitlink(name) {
			out = append(out, Change{Path: vpath.Path(name), State: s})
		}
	}
	// Sorted first: rename detection takes paths in git's order (and its cache a
	// stable key); pairing only drops entries, so the order holds.
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	out, err := r.pairRenames(out)
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	return out, nil
}

// gitlink reports whether the index holds p as a submodule's commit.
func (s *snapshot) gitlink(p string) bool {
	i, ok := s.byName[p]
	return ok && s.entries[i].mode == filemode.Submodule
}

// snapshot is one full status: the index it was computed from, the staged changes
// (index against HEAD) and the working tree's (against the index), kept apart so a
// Tracker can redo the second for a few paths.
type snapshot struct {
	stamp     stamp
	indexTime time.Time
	entries   []ientry
	byName    map[string]int32
	trees     *indexTrees
	staged    map[string]State
	work      map[string]State
	// unmerged are the paths with unmerged index entries, which git's index trees
	// leave out (so HEAD's file would seem deleted).
	unmerged map[string]bool
	// rules are the settings by which git reads the working tree (see workRules).
	rules *workRules
}

// stamp identifies the index and HEAD a snapshot was computed from.
type stamp struct {
	indexSize  int64
	indexMtime time.Time
	head       string
}

// currentStamp reads the index's stat data and the commit HEAD names.
func (r *Repo) currentStamp() stamp {
	var s stamp
	if fi, err := os.Stat(filepath.Join(r.dir, ".git", "index")); err == nil {
		s.indexSize, s.indexMtime = fi.Size(), fi.ModTime()
	}
	if ref, err := r.repo.Head(); err == nil {
		s.head = ref.Hash().String()
	}
	return s
}

// snapshot computes a full status.
func (r *Repo) snapshot(ctx context.Context) (*snapshot, error) {
	st := r.currentStamp()
	indexTime := st.indexMtime
	if indexTime.IsZero() {
		indexTime = time.Now()
	}
	entries, cached, err := r.readEntries()
	if err != nil {
		return nil, err
	}
	head, err := r.headTreeHash()
	if err != nil {
		return nil, err
	}
	rules, err := r.workRules()
	if err != nil {
		return nil, err
	}
	snap := &snapshot{stamp: st, indexTime: indexTime, entries: entries, trees: hashIndexTrees(entries, cached), staged: map[string]State{},
		rules: rules}
	snap.byName = make(map[string]int32, len(entries))
	for i := range entries {
		snap.byName[entries[i].name] = int32(i)
	}
	if err := r.stagedChanges(snap.trees, head, snap.staged); err != nil {
		return nil, err
	}
	if snap.work, err = r.walkWork(ctx, snap); err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.stage != 0 {
			if snap.unmerged == nil {
				snap.unmerged = map[string]bool{}
			}
			snap.unmerged[e.name] = true
		}
	}
	return snap, nil
}

// merged folds the staged and working-tree states of each path into one.
func (s *snapshot) merged() map[string]State {
	states := make(map[string]State, len(s.staged)+len(s.work))
	for p, st := range s.staged {
		states[p] = st
	}
	for p, w := range s.work {
		switch staged := s.staged[p]; {
		case staged == Deleted || w == Deleted:
			// removed from the index but on disk (git rm --cached), or gone from disk
			states[p] = Deleted
		case staged == Added:
		case w == Untracked && staged == "":
			states[p] = Untracked
		default:
			states[p] = Modified
		}
	}
	for p := range s.unmerged {
		states[p] = Conflicted // whatever its stages and file: git shows it as unmerged
	}
	return states
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
