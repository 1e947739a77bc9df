package gitrepo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The index against HEAD, the way git does it: the trees the index would commit are
// hashed in memory (no object is written) and compared with HEAD's, top down. Equal
// hashes end the walk, so with nothing staged one hash comparison answers, and only
// the trees along a staged change are read from the object store. go-git's
// Worktree.Status instead reads and diffs every tree of HEAD.

// indexTrees holds the tree hashes of the stage-0 entries of an index, one per folder
// ("" the root, "a/b" a folder), and where each folder's entries lie in the sorted
// entries.
type indexTrees struct {
	entries []ientry
	dirs    map[string]dirSpan
}

// dirSpan is a folder's tree hash and the range of its entries.
type dirSpan struct {
	hash   plumbing.Hash
	lo, hi int
}

// hashIndexTrees hashes the trees of entries in one pass, taking from cached (the
// index's cache-tree, nil when absent) the hash of each folder git marked valid
// there, as git status does. A cached record whose entry count does not match the
// folder's entries is not trusted: the trees are then all hashed.
func hashIndexTrees(entries []ientry, cached map[string]cachedTree) *indexTrees {
	if len(cached) > 0 && cacheTreeUsable(entries) {
		if t, ok := buildIndexTrees(entries, cached); ok {
			return t
		}
	}
	t, _ := buildIndexTrees(entries, nil)
	return t
}

// buildIndexTrees computes the folders' spans and tree hashes. Git sorts index
// entries by path and trees by name with folders as if they ended in "/"; the two
// orders agree, so each folder's entries are contiguous and appear in tree order,
// and a folder closes (is hashed and added to its parent) at the first entry outside
// it. A folder found in cached is not encoded nor hashed; ok is false when one's
// entry count disagrees with its span.
func buildIndexTrees(entries []ientry, cached map[string]cachedTree) (_ *indexTrees, ok bool) {
	t := &indexTrees{entries: entries, dirs: make(map[string]dirSpan, 64)}
	type frame struct {
		path   string // "" or "a/b"
		lo     int
		buf    []byte
		cached cachedTree
		known  bool // cached holds the folder's tree: buf stays empty
	}
	root, known := cached[""]
	stack := []*frame{{cached: root, known: known}}
	var free [][]byte // buffers of closed folders, reused by the next ones
	ok = true
	closeTop := func(hi int) {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		h := f.cached.hash
		if !f.known {
			h = plumbing.ComputeHash(plumbing.TreeObject, f.buf)
		} else if f.cached.count != hi-f.lo {
			ok = false
		}
		free = append(free, f.buf[:0])
		t.dirs[f.path] = dirSpan{hash: h, lo: f.lo, hi: hi}
		if len(stack) > 0 {
			if parent := stack[len(stack)-1]; !parent.known {
				parent.buf = appendTreeEntry(parent.buf, filemode.Dir, f.path[strings.LastIndexByte(f.path, '/')+1:], h)
			}
		}
	}
	for i := range entries {
		e := &entries[i]
		if e.stage != 0 || e.intentToAdd {
			continue // conflicted and intent-to-add entries are not part of the tree
		}
		dir, name := "", e.name
		if j := strings.LastIndexByte(e.name, '/'); j >= 0 {
			dir, name = e.name[:j], e.name[j+1:]
		}
		for top := stack[len(stack)-1]; top.path != "" && !within(dir, top.path); top = stack[len(stack)-1] {
			closeTop(i)
		}
		for top := stack[len(stack)-1]; top.path != dir; top = stack[len(stack)-1] {
			// open the next folder down towards dir
			rest := dir
			if top.path != "" {
				rest = dir[len(top.path)+1:]
			}
			next, _, _ := strings.Cut(rest, "/")
			p := next
			if top.path != "" {
				p = top.path + "/" + next
			}
			f := &frame{path: p, lo: i}
			f.cached, f.known = cached[p]
			if n := len(free); n > 0 {
				f.buf, free = free[n-1], free[:n-1]
			}
			stack = append(stack, f)
		}
		if top := stack[len(stack)-1]; !top.known {
			top.buf = appendTreeEntry(top.buf, e.mode, name, e.hash)
		}
	}
	for len(stack) > 0 {
		closeTop(len(entries))
	}
	return t, ok
}

// within reports whether the folder dir is the folder top or inside it.
func within(dir, top string) bool {
	return dir == top || len(dir) > len(top) && dir[len(top)] == '/' && dir[:len(top)] == top
}

// appendTreeEntry appends one entry of a tree object: octal mode, name, raw hash.
func appendTreeEntry(buf []byte, mode filemode.FileMode, name string, h plumbing.Hash) []byte {
	buf = strconv.AppendUint(buf, uint64(mode), 8)
	buf = append(buf, ' ')
	buf = append(buf, name...)
	buf = append(buf, 0)
	return append(buf, h[:]...)
}

// root returns the hash of the whole tree.
func (t *indexTrees) root() plumbing.Hash { return t.dirs[""].hash }

// children lists the files and folders directly in the folder dir of the index.
func (t *indexTrees) children(dir string) (files map[string]*ientry, dirs map[string]bool) {
	files, dirs = map[string]*ientry{}, map[string]bool{}
	span, ok := t.dirs[dir]
	if !ok {
		return files, dirs
	}
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	for i := span.lo; i < span.hi; i++ {
		e := &t.entries[i]
		if e.stage != 0 || e.intentToAdd || !strings.HasPrefix(e.name, prefix) {
			continue
		}
		rest := e.name[len(prefix):]
		if sub, _, ok := strings.Cut(rest, "/"); ok {
			dirs[sub] = true
		} else {
			files[rest] = e
		}
	}
	return files, dirs
}

// each calls fn with every stage-0 path under the folder dir.
func (t *indexTrees) each(dir string, fn func(string)) {
	span, ok := t.dirs[dir]
	if !ok {
		return
	}
	for i := span.lo; i < span.hi; i++ {
		if e := &t.entries[i]; e.stage == 0 && !e.intentToAdd {
			fn(e.name)
		}
	}
}

// stagedChanges compares the index trees with HEAD's tree and records, for each
// path that differs, Added, Deleted or Modified. head is the zero hash when HEAD has
// no commit.
func (r *Repo) stagedChanges(t *indexTrees, head plumbing.Hash, out map[string]State) error {
	if head.IsZero() {
		t.each("", func(p string) { out[p] = Added })
		return nil
	}
	return r.diffDir(t, "", true, head, out)
}

// diffDir compares the folder dir of the index (inIndex false when the index has no
// such folder) with the tree head of HEAD, reading HEAD's trees only where the
// hashes differ.
func (r *Repo) diffDir(t *indexTrees, dir string, inIndex bool, head plumbing.Hash, out map[string]State) error {
	if inIndex && t.dirs[dir].hash == head {
		return nil
	}
	tree, err := r.repo.TreeObject(head)
	if err != nil {
		return fmt.Errorf("read tree %q of HEAD: %w", dir, err)
	}
	join := func(name string) string {
		if dir == "" {
			return name
		}
		return dir + "/" + name
	}
	var files map[string]*ientry
	var dirs map[string]bool
	if inIndex {
		files, dirs = t.children(dir)
	}
	inHead := make(map[string]bool, len(tree.Entries))
	for _, te := range tree.Entries {
		p := join(te.Name)
		inHead[te.Name] = true
		if te.Mode == filemode.Dir {
			if err := r.diffDir(t, p, dirs[te.Name], te.Hash, out); err != nil {
				return err
			}
			if files[te.Name] != nil { // a folder in HEAD became a file
				out[p] = Added
			}
			continue
		}
		switch e := files[te.Name]; {
		case e == nil:
			out[p] = Deleted
		case e.hash != te.Hash || e.mode != te.Mode:
			out[p] = Modified
		}
		if dirs[te.Name] { // a file in HEAD became a folder
			t.each(p, func(q string) { out[q] = Added })
		}
	}
	for n := range files {
		if !inHead[n] {
			out[join(n)] = Added
		}
	}
	for n := range dirs {
		if !inHead[n] {
			t.each(join(n), func(q string) { out[q] = Added })
		}
	}
	return nil
}

// headTreeHash returns the hash of HEAD's tree, or the zero hash when HEAD has no
// commit yet.
func (r *Repo) headTreeHash() (plumbing.Hash, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	if tree, ok := r.commitTree(ref.Hash()); ok {
		return tree, nil
	}
	c, err := object.GetCommit(r.repo.Storer, ref.Hash())
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read HEAD commit: %w", err)
	}
	return c.TreeHash, nil
}
