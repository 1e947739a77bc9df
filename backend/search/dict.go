package search

import (
	"bytes"
	"encoding/binary"
	"sort"
)

// The term dictionary of a persisted index is used where it lies in the mapped file,
// as the note table is (docs.go): opening an index decodes no term, so a one-shot
// process pays for the terms its query looks up, not for the vault's vocabulary (a
// vault of names and several languages has millions of terms, and building a map of
// them was most of a fresh process's search). It holds, by term id, each term and its
// posting list, one entry after the other, with the offset of every dictBlock-th
// entry; the term ids in the terms' order, for lookups and prefixes by binary search;
// and the lists of the documents holding a term in their title or an alias, for the
// few terms that have one.
//
// Term ids are given in the order of the terms' occurrences in the word sequences
// when they are first saved, most frequent first (postings.saveOrder), so that the
// common words of a vault take one or two bytes in every sequence.

// dictBlock is how many entries one offset covers: a lookup by id skips at most
// dictBlock-1 entries.
const dictBlock = 8

// dict is a persisted term dictionary, in the mapped file.
type dict struct {
	n       int
	blocks  []byte // uint32 per dictBlock entries: the offset of the block's first in entries
	byTerm  []byte // n uint32 term ids, in the terms' byte order
	entries []byte // per term id: uvarint length, term, uvarint length, posting list
	nameIdx []byte // per term with a name list, in id order: uint32 id, uint32 end in names
	names   []byte // the name lists, one after the other
}

// entry returns the term of id and its persisted posting list (nil when damaged).
func (d *dict) entry(id uint32) (term, list []byte) {
	if int(id) >= d.n {
		return nil, nil // a damaged id
	}
	off := int(binary.LittleEndian.Uint32(d.blocks[4*(int(id)/dictBlock):]))
	for k := int(id) % dictBlock; ; k-- {
		t, l, next, ok := d.at(off)
		if !ok {
			return nil, nil
		}
		if k == 0 {
			return t, l
		}
		off = next
	}
}

// at decodes the entry at offset off of entries.
func (d *dict) at(off int) (term, list []byte, next int, ok bool) {
	e := d.entries
	if off < 0 || off >= len(e) {
		return nil, nil, 0, false
	}
	n, k := binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return nil, nil, 0, false
	}
	off += k
	term = e[off : off+int(n) : off+int(n)]
	off += int(n)
	n, k = binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return nil, nil, 0, false
	}
	off += k
	return term, e[off : off+int(n) : off+int(n)], off + int(n), true
}

// sortedAt is the id of the i-th term in byte order.
func (d *dict) sortedAt(i int) uint32 { return binary.LittleEndian.Uint32(d.byTerm[4*i:]) }

// termAt is the i-th term in byte order.
func (d *dict) termAt(i int) []byte {
	t, _ := d.entry(d.sortedAt(i))
	return t
}

// search returns the first position in byte order whose term is not below t.
func (d *dict) search(t string) int {
	return sort.Search(d.n, func(i int) bool { return string(d.termAt(i)) >= t })
}

// find returns the id of term t.
func (d *dict) find(t string) (uint32, bool) {
	i := d.search(t)
	if i < d.n && string(d.termAt(i)) == t {
		return d.sortedAt(i), true
	}
	return 0, false
}

// nameList returns the persisted name list of id, or nil.
func (d *dict) nameList(id uint32) []byte {
	n := len(d.nameIdx) / 8
	i := sort.Search(n, func(i int) bool { return binary.LittleEndian.Uint32(d.nameIdx[8*i:]) >= id })
	if i >= n || binary.LittleEndian.Uint32(d.nameIdx[8*i:]) != id {
		return nil
	}
	start := 0
	if i > 0 {
		start = int(binary.LittleEndian.Uint32(d.nameIdx[8*i-4:]))
	}
	end := int(binary.LittleEndian.Uint32(d.nameIdx[8*i+4:]))
	if start > end || end > len(d.names) {
		return nil
	}
	return d.names[start:end:end]
}

// check verifies the areas' sizes and the name index's order; ids and offsets read
// from the other areas are checked where they are used (entry, at), so that opening
// an index reads none of them.
func (d *dict) check() bool {
	if len(d.blocks) != 4*((d.n+dictBlock-1)/dictBlock) || len(d.byTerm) != 4*d.n || len(d.nameIdx)%8 != 0 {
		return false
	}
	prevID, prevEnd := -1, 0
	for i := 0; i < len(d.nameIdx); i += 8 {
		id, end := int(binary.LittleEndian.Uint32(d.nameIdx[i:])), int(binary.LittleEndian.Uint32(d.nameIdx[i+4:]))
		if id <= prevID || id >= d.n || end < prevEnd || end > len(d.names) {
			return false
		}
		prevID, prevEnd = id, end
	}
	return true
}

// withPrefix returns the positions in byte order [lo, hi) of the terms starting with p.
func (d *dict) withPrefix(p string) (lo, hi int) {
	lo = d.search(p)
	hi = lo + sort.Search(d.n-lo, func(i int) bool { return !bytes.HasPrefix(d.termAt(lo+i), []byte(p)) })
	return lo, hi
}
