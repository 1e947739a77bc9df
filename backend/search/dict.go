package search

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
)

// The term dictionary of a persisted index is used where it lies in the mapped file,
// as the note table is (docs.go): opening an index decodes no term, so a one-shot
// process pays for the terms its query looks up, not for the vault's vocabulary (a
// vault of names and several languages has millions of terms, and building a map of
// them was most of a fresh process's search). It holds, by term id, each term and its
// posting list, one entry after the other, with the offset of every dictBlock-th
// entry; and the lists of the documents holding a term in their title or an alias,
// for the few terms that have one.
//
// Term ids are given in the order of the terms' occurrences in the word sequences
// when they are first saved, most frequent first (postings.saveOrder), so that the
// common words of a vault take one or two bytes in every sequence. Within the ids
// that take as many bytes in a sequence (seqTierEnds: below 128, 16,384, …), which order
// the terms have costs nothing: there they are in byte order. The ids are thus runs
// of terms in byte order, where a lookup or a prefix is a binary search in each run
// (a few: one per size of id, and one more per save that added terms), and each
// entry is written as the bytes it shares with the term before it and the rest (the
// first of a block or a run whole), so that a large vocabulary of names, sorted,
// costs little more than what tells its terms apart.

// dictBlock is how many entries one offset covers: a lookup by id skips at most
// dictBlock-1 entries.
const dictBlock = 8

// dict is a persisted term dictionary, in the mapped file.
type dict struct {
	n       int
	runs    []int  // the ends of the runs of ids whose terms are in byte order; the last is n
	blocks  []byte // uint32 per dictBlock entries: the offset of the block's first in entries
	entries []byte // per term id: uvarint shared bytes, uvarint length and rest of the term, uvarint length, posting list
	nameIdx []byte // per term with a name list, in id order: uint32 id, uint32 end in names
	names   []byte // the name lists, one after the other
}

// at decodes the entry at offset off of entries, whose term shares its first bytes
// with prev (the previous entry's term): the term is built in buf (which may be
// prev's bytes) and is valid until buf is written again.
func (d *dict) at(off int, buf []byte) (term, list []byte, next int, ok bool) {
	e := d.entries
	if off < 0 || off >= len(e) {
		return nil, nil, 0, false
	}
	shared, k := binary.Uvarint(e[off:])
	if k <= 0 || shared > uint64(len(buf)) {
		return nil, nil, 0, false
	}
	off += k
	n, k := binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return nil, nil, 0, false
	}
	off += k
	term = append(buf[:shared], e[off:off+int(n)]...)
	off += int(n)
	n, k = binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return nil, nil, 0, false
	}
	off += k
	return term, e[off : off+int(n) : off+int(n)], off + int(n), true
}

// entry returns the term of id (in a new slice) and its persisted posting list (nil
// when damaged).
func (d *dict) entry(id uint32) (term, list []byte) {
	if int(id) >= d.n {
		return nil, nil // a damaged id
	}
	off := int(binary.LittleEndian.Uint32(d.blocks[4*(int(id)/dictBlock):]))
	var buf []byte
	for k := int(id) % dictBlock; ; k-- {
		t, l, next, ok := d.at(off, buf)
		if !ok {
			return nil, nil
		}
		if k == 0 {
			return t, l
		}
		buf, off = t, next
	}
}

// list returns the persisted posting list of id (nil when damaged).
func (d *dict) list(id uint32) []byte {
	_, l := d.entry(id)
	return l
}

// each calls f with every term from id from on in id order, its id and its list; the
// term's bytes are valid during the call, built in buf. It stops early when f
// returns false.
func (d *dict) each(from int, f func(t []byte, id uint32, list []byte) bool, buf []byte) {
	if from >= d.n || from < 0 {
		return
	}
	start := from &^ (dictBlock - 1)
	off := int(binary.LittleEndian.Uint32(d.blocks[4*(start/dictBlock):]))
	for id := start; id < d.n; id++ {
		t, l, next, ok := d.at(off, buf)
		if !ok || id >= from && !f(t, uint32(id), l) {
			return
		}
		buf, off = t, next
	}
}

// run returns the ids [lo, hi) of run r.
func (d *dict) run(r int) (lo, hi int) {
	if r > 0 {
		lo = d.runs[r-1]
	}
	return lo, d.runs[r]
}

// raw decodes the entry at offset off of entries without building its term: the
// bytes it shares with the term before it, the rest of the term, its list and the
// offset of the next entry.
func (d *dict) raw(off int) (shared int, rest, list []byte, next int, ok bool) {
	e := d.entries
	if off < 0 || off >= len(e) {
		return 0, nil, nil, 0, false
	}
	sh, k := binary.Uvarint(e[off:])
	if k <= 0 || sh > maxTermBytes {
		return 0, nil, nil, 0, false
	}
	off += k
	n, k := binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return 0, nil, nil, 0, false
	}
	off += k
	rest = e[off : off+int(n) : off+int(n)]
	off += int(n)
	n, k = binary.Uvarint(e[off:])
	if k <= 0 || n > uint64(len(e)-off-k) {
		return 0, nil, nil, 0, false
	}
	off += k
	return int(sh), rest, e[off : off+int(n) : off+int(n)], off + int(n), true
}

// maxTermBytes bounds the bytes a term shares with the one before it (a damaged
// entry is refused rather than met with a huge copy).
const maxTermBytes = 1 << 16

// anchors returns how many entries of run r begin a block or the run (their terms
// are written whole), and anchor returns the id of the j-th.
func (d *dict) anchors(r int) int {
	lo, hi := d.run(r)
	return 1 + (hi-1)/dictBlock - lo/dictBlock
}

func (d *dict) anchor(r, j int) int {
	lo, _ := d.run(r)
	if j == 0 {
		return lo
	}
	return (lo/dictBlock + j) * dictBlock
}

// wholeTerm returns the term of an anchor id, where it lies in the mapped file.
func (d *dict) wholeTerm(id int) ([]byte, bool) {
	off := int(binary.LittleEndian.Uint32(d.blocks[4*(id/dictBlock):]))
	for k := id % dictBlock; ; k-- {
		shared, rest, _, next, ok := d.raw(off)
		if !ok {
			return nil, false
		}
		if k == 0 {
			return rest, shared == 0
		}
		off = next
	}
}

// search returns the first id of run r whose term is not below t, and whether its
// term is t: a binary search among the terms written whole, then a walk of at most a
// block.
func (d *dict) search(r int, t string) (int, bool) {
	lo, hi := d.run(r)
	j := sort.Search(d.anchors(r), func(j int) bool {
		term, ok := d.wholeTerm(d.anchor(r, j))
		return !ok || string(term) >= t
	})
	from := lo
	if j > 0 {
		from = d.anchor(r, j-1) // below t: the answer is after it, by the next anchor
	}
	var stack [128]byte
	buf := stack[:0]
	off := int(binary.LittleEndian.Uint32(d.blocks[4*(from/dictBlock):]))
	for id := from &^ (dictBlock - 1); id < hi; id++ {
		term, _, next, ok := d.at(off, buf)
		if !ok {
			break
		}
		if id >= from && string(term) >= t {
			return id, string(term) == t
		}
		buf, off = term, next
	}
	return hi, false
}

// find returns the id of term t.
func (d *dict) find(t string) (uint32, bool) {
	for r := range d.runs {
		if i, ok := d.search(r, t); ok {
			return uint32(i), true
		}
	}
	return 0, false
}

// termRef is a term with its id.
type termRef struct {
	term string
	id   uint32
}

// withPrefix returns the terms starting with p and their ids, in byte order.
func (d *dict) withPrefix(p string) []termRef {
	var out []termRef
	for r := range d.runs {
		_, hi := d.run(r)
		from, _ := d.search(r, p)
		d.each(from, func(t []byte, id uint32, _ []byte) bool {
			if int(id) >= hi || !bytes.HasPrefix(t, []byte(p)) {
				return false
			}
			out = append(out, termRef{string(t), id})
			return true
		}, nil)
	}
	if len(d.runs) > 1 {
		slices.SortFunc(out, func(a, b termRef) int { return strings.Compare(a.term, b.term) })
	}
	return out
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

// check verifies the areas' sizes, the runs and the name index's order; offsets read
// from the other areas are checked where they are used (entry, at), so that opening
// an index reads none of them.
func (d *dict) check() bool {
	if len(d.blocks) != 4*((d.n+dictBlock-1)/dictBlock) || len(d.nameIdx)%8 != 0 {
		return false
	}
	prev := 0
	for _, end := range d.runs {
		if end <= prev || end > d.n {
			return false
		}
		prev = end
	}
	if prev != d.n {
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
