package graph

import (
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/vpath"
)

// ref counts how many times one path contributes to an index entry.
type ref struct {
	path vpath.Path
	n    int32
}

// refs is a list of refs sorted by path, used for the reverse indexes (backlinks,
// link dependencies by stem, aliases). Lists are small except for popular targets,
// where insertion is a memmove.
type refs []ref

func cmpRef(a ref, p vpath.Path) int { return strings.Compare(string(a.path), string(p)) }

// add counts k more uses by p and returns the updated list.
func (r refs) add(p vpath.Path, k int32) refs {
	if n := len(r); n == 0 || r[n-1].path < p {
		return append(r, ref{path: p, n: k}) // the common case when adding in path order
	} else if r[n-1].path == p {
		r[n-1].n += k
		return r
	}
	i, found := slices.BinarySearchFunc(r, p, cmpRef)
	if found {
		r[i].n += k
		return r
	}
	return slices.Insert(r, i, ref{path: p, n: k})
}

// addLast is add for a caller adding paths in increasing order: it compares p
// only with the last entry, for equality.
func (r refs) addLast(p vpath.Path, k int32) refs {
	if n := len(r); n > 0 && r[n-1].path == p {
		r[n-1].n += k
		return r
	}
	return append(r, ref{path: p, n: k})
}

// remove counts k fewer uses by p and returns the updated list, dropping p at zero.
func (r refs) remove(p vpath.Path, k int32) refs {
	i, found := slices.BinarySearchFunc(r, p, cmpRef)
	if !found {
		return r
	}
	r[i].n -= k
	if r[i].n <= 0 {
		r = slices.Delete(r, i, i+1)
	}
	return r
}

// addRef adds k uses of key by p to the index m.
func addRef[K comparable](m map[K]refs, key K, p vpath.Path, k int32) {
	m[key] = m[key].add(p, k)
}

// removeRef removes k uses of key by p from the index m, deleting empty entries.
func removeRef[K comparable](m map[K]refs, key K, p vpath.Path, k int32) {
	r := m[key].remove(p, k)
	if len(r) == 0 {
		delete(m, key)
		return
	}
	m[key] = r
}

// compact sorts a list built by appending one ref per use and merges duplicates.
func (r refs) compact() refs {
	slices.SortFunc(r, func(a, b ref) int { return strings.Compare(string(a.path), string(b.path)) })
	out := r[:0]
	for _, x := range r {
		if len(out) > 0 && out[len(out)-1].path == x.path {
			out[len(out)-1].n += x.n
			continue
		}
		out = append(out, x)
	}
	return slices.Clip(out)
}
