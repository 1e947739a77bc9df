package gitrepo

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The tree of a commit that names its paths, as `git commit -- paths` makes it: HEAD's
// tree with the named paths replaced by their working-tree content (or removed), and
// nothing else of the index. Only the trees along a named path are read and written;
// every other subtree keeps its hash.

// buildTree returns the hash of base (a tree hash; zero for the empty tree) with the
// entries of set put in (a nil entry removes the path), writing the new trees. A file
// put where a folder was replaces the folder, and a path put under a file replaces the
// file, as git's index does. A path inside a submodule is refused (ErrInvalidPath): its
// files are the submodule's repository's. dir is the folder base is the tree of.
func (r *Repo) buildTree(dir string, base plumbing.Hash, set map[string]*index.Entry) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	if !base.IsZero() {
		t, err := r.repo.TreeObject(base)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("read tree %s: %w", base, err)
		}
		entries = append(entries, t.Entries...)
	}
	files := map[string]*index.Entry{}            // names set directly in this folder
	below := map[string]map[string]*index.Entry{} // the rest, by the subfolder they are in
	for p, e := range set {
		if first, rest, ok := strings.Cut(p, "/"); ok {
			if below[first] == nil {
				below[first] = map[string]*index.Entry{}
			}
			below[first][rest] = e
		} else {
			files[p] = e
		}
	}
	byName := make(map[string]int, len(entries))
	for i, e := range entries {
		byName[e.Name] = i
	}
	drop := func(name string, dir bool) {
		if i, ok := byName[name]; ok && (entries[i].Mode == filemode.Dir) == dir {
			entries[i].Name = "" // left out below
		}
	}
	put := func(name string, mode filemode.FileMode, h plumbing.Hash) {
		if i, ok := byName[name]; ok {
			entries[i] = object.TreeEntry{Name: name, Mode: mode, Hash: h}
			return
		}
		byName[name] = len(entries)
		entries = append(entries, object.TreeEntry{Name: name, Mode: mode, Hash: h})
	}
	for name, sub := range below {
		if files[name] != nil {
			continue // the path is set as a file, which replaces the folder
		}
		subBase := plumbing.ZeroHash
		if i, ok := byName[name]; ok && entries[i].Mode == filemode.Dir {
			subBase = entries[i].Hash
		} else if ok && entries[i].Mode == filemode.Submodule {
			return plumbing.ZeroHash, insideSubmodule(path.Join(dir, name))
		}
		h, err := r.buildTree(path.Join(dir, name), subBase, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h.IsZero() {
			drop(name, true) // the folder is left empty
		} else {
			put(name, filemode.Dir, h)
		}
	}
	for name, e := range files {
		if e == nil {
			drop(name, false)
		} else {
			put(name, e.Mode, e.Hash)
		}
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.Name != "" {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return plumbing.ZeroHash, nil
	}
	sort.Sort(object.TreeEntrySorter(kept))
	return r.writeTree(kept)
}

// insideSubmodule is the error for a path committed inside the submodule at p.
func insideSubmodule(p string) error {
	return fmt.Errorf("%w: %s is a submodule, a repository of its own: commit its files with git inside it", ErrInvalidPath, p)
}

// writeTree stores a tree of sorted entries and returns its hash.
func (r *Repo) writeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	obj := r.repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode tree: %w", err)
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store tree: %w", err)
	}
	return h, nil
}

// rootTree returns the tree hash a commit records: the empty tree for no entries.
func (r *Repo) rootTree(h plumbing.Hash) (plumbing.Hash, error) {
	if !h.IsZero() {
		return h, nil
	}
	return r.writeTree(nil)
}
