package gitrepo

import (
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// The index's cache-tree extension (TREE): git records in it, for each folder, the
// tree object it last wrote or read for the folder's entries and how many entries
// that tree covers, and drops (marks -1) a folder's record, and its parents', when
// an entry under it changes. git status reads the hashes from it instead of hashing
// the index's trees; hashIndexTrees does the same for the folders git marked valid.
// MemoTree's own index writes (spliceIndex, go-git's encoder) write no extensions,
// so an index they wrote has no cache-tree to trust.

// cachedTree is a folder's valid record in the cache-tree extension: the number of
// index entries under the folder and the hash of its tree.
type cachedTree struct {
	count int
	hash  plumbing.Hash
}

// maxCacheTreeDepth bounds the folders nested in a cache-tree extension; a deeper
// one is treated as damaged (git's own paths end long before).
const maxCacheTreeDepth = 4096

// parseCacheTree decodes the data of a TREE extension into the valid records by
// folder path ("" the root, "a/b" a folder). A damaged extension gives nil: the
// trees are then hashed, as without one. Records are, depth first: the folder's
// name (the root's is empty) and a NUL, its entry count (-1 when invalid), a space,
// its number of subfolders, a newline, and the tree's hash when the count is valid.
func parseCacheTree(s string) map[string]cachedTree {
	out := make(map[string]cachedTree, 64)
	var read func(path string, depth int) bool
	read = func(path string, depth int) bool {
		if depth > maxCacheTreeDepth {
			return false
		}
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return false
		}
		countText, subText, ok := strings.Cut(s[:nl], " ")
		if !ok {
			return false
		}
		count, err1 := strconv.Atoi(countText)
		subs, err2 := strconv.Atoi(subText)
		if err1 != nil || err2 != nil || count < -1 || subs < 0 {
			return false
		}
		s = s[nl+1:]
		if count >= 0 {
			if len(s) < len(plumbing.Hash{}) {
				return false
			}
			var h plumbing.Hash
			copy(h[:], s)
			s = s[len(h):]
			out[path] = cachedTree{count: count, hash: h}
		}
		for range subs {
			nul := strings.IndexByte(s, 0)
			if nul <= 0 || strings.IndexByte(s[:nul], '/') >= 0 {
				return false // a subfolder has a name of one component
			}
			name := s[:nul]
			s = s[nul+1:]
			child := strings.Clone(name)
			if path != "" {
				child = path + "/" + name
			}
			if !read(child, depth+1) {
				return false
			}
		}
		return true
	}
	nul := strings.IndexByte(s, 0)
	if nul != 0 { // the root's name is empty
		return nil
	}
	s = s[1:]
	if !read("", 0) || s != "" {
		return nil
	}
	return out
}

// cacheTreeUsable reports whether the cache-tree's counts can be checked against
// the entries' positions: git records no valid tree over a conflicted or
// intent-to-add entry, and hashIndexTrees leaves them out of its trees, so with any
// such entry the cache-tree is not used at all.
func cacheTreeUsable(entries []ientry) bool {
	for i := range entries {
		if entries[i].stage != 0 || entries[i].intentToAdd {
			return false
		}
	}
	return true
}
