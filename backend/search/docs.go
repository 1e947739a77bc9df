package search

import (
	"encoding/binary"
	"math"
	"sort"
	"strings"

	"github.com/memotree/memotree/backend/vpath"
)

// The documents of an index have ids in the order they were entered. Those of a
// persisted index (ids below tab.n) are read from its table where it lies in the
// mapped file: a fixed record each for what every query needs (length, size, time,
// fingerprint, the ends of its trigram filter and word sequence) and a variable part
// (path, entity type, aliases, tags) decoded only for the documents a query shows or
// filters. So opening a persisted index of 100,000 notes decodes nothing per note.
// Documents entered since (ids from tab.n) are docInfo values in memory.

// docRecordSize is the size of one document's fixed record.
const docRecordSize = 48

// Offsets in a fixed record (little-endian).
const (
	recVarEnd    = 0  // uint32: the end of its variable part in the table's vars
	recLength    = 4  // float32: weighted number of terms
	recSize      = 8  // int64
	recMtime     = 16 // int64, Unix nanoseconds
	recSum       = 24 // uint64
	recFilterEnd = 32 // uint64: the end of its trigram filter in the filter area
	recSeqEnd    = 40 // uint64: the end of its word sequence in the sequence area
)

// docTable is the persisted documents, as they lie in the mapped file.
type docTable struct {
	n       int
	records []byte // n fixed records
	vars    []byte // the variable parts, one after the other
	sorted  []byte // n uint32 ids, in path order
	filters []byte // the trigram filters, one after the other
	seqs    []byte // the word sequences, one after the other
}

func (t *docTable) rec(id uint32) []byte {
	return t.records[int(id)*docRecordSize : (int(id)+1)*docRecordSize]
}

func (t *docTable) u64(id uint32, off int) uint64 {
	return binary.LittleEndian.Uint64(t.rec(id)[off:])
}

// end returns the end offset of field off of id, and the start: the previous
// document's end (0 for the first).
func (t *docTable) span(id uint32, off int, wide bool) (int, int) {
	get := func(i uint32) int {
		if wide {
			return int(t.u64(i, off))
		}
		return int(binary.LittleEndian.Uint32(t.rec(i)[off:]))
	}
	start := 0
	if id > 0 {
		start = get(id - 1)
	}
	return start, get(id)
}

// pathBytes returns the bytes of a persisted document's path, in the mapped file.
func (t *docTable) pathBytes(id uint32) []byte {
	s, e := t.span(id, recVarEnd, false)
	d := decoder{b: t.vars[s:e]}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		return nil
	}
	return d.b[:n]
}

// check verifies what lookups rely on: every end within its area and not before the
// previous one, every sorted id in range. A damaged table is refused at load rather
// than met by a query.
func (t *docTable) check() bool {
	var vPrev, fPrev, sPrev uint64
	for id := range uint32(t.n) {
		r := t.rec(id)
		v := uint64(binary.LittleEndian.Uint32(r[recVarEnd:]))
		f := binary.LittleEndian.Uint64(r[recFilterEnd:])
		s := binary.LittleEndian.Uint64(r[recSeqEnd:])
		if v < vPrev || f < fPrev || s < sPrev {
			return false
		}
		vPrev, fPrev, sPrev = v, f, s
	}
	if vPrev > uint64(len(t.vars)) || fPrev > uint64(len(t.filters)) || sPrev > uint64(len(t.seqs)) {
		return false
	}
	for i := 0; i < len(t.sorted); i += 4 {
		if binary.LittleEndian.Uint32(t.sorted[i:]) >= uint32(t.n) {
			return false
		}
	}
	return true
}

// stamp is a persisted document's size and time after it was found unchanged in
// content but touched.
type stamp struct{ size, mtime int64 }

// n is the number of document ids, dead ones included.
func (x *postings) n() int { return x.tab.n + len(x.docs) }

// added returns the in-memory document id, or nil for a persisted one.
func (x *postings) added(id uint32) *docInfo {
	if int(id) < x.tab.n {
		return nil
	}
	return &x.docs[int(id)-x.tab.n]
}

// alive reports whether document id is in the index.
func (x *postings) alive(id uint32) bool {
	if d := x.added(id); d != nil {
		return d.alive
	}
	return x.deadBits == nil || x.deadBits[id>>6]&(1<<(id&63)) == 0
}

// length is document id's weighted number of terms.
func (x *postings) length(id uint32) float32 {
	if d := x.added(id); d != nil {
		return d.length
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(x.tab.rec(id)[recLength:]))
}

// path is document id's path.
func (x *postings) path(id uint32) vpath.Path {
	if d := x.added(id); d != nil {
		return d.path
	}
	return vpath.Path(x.tab.pathBytes(id))
}

// stampOf is document id's size, time and content fingerprint.
func (x *postings) stampOf(id uint32) (size, mtime int64, sum uint64) {
	if d := x.added(id); d != nil {
		return d.size, d.mtime, d.sum
	}
	sum = x.tab.u64(id, recSum)
	if s, ok := x.stamps[id]; ok {
		return s.size, s.mtime, sum
	}
	return int64(x.tab.u64(id, recSize)), int64(x.tab.u64(id, recMtime)), sum
}

// restamp records document id's new size and time (its content is unchanged).
func (x *postings) restamp(id uint32, size, mtime int64) {
	if d := x.added(id); d != nil {
		d.size, d.mtime = size, mtime
		return
	}
	if x.stamps == nil {
		x.stamps = map[uint32]stamp{}
	}
	x.stamps[id] = stamp{size, mtime}
}

// info returns document id in full (its strings copied out of the mapped file).
func (x *postings) info(id uint32) docInfo {
	if d := x.added(id); d != nil {
		return *d
	}
	s, e := x.tab.span(id, recVarEnd, false)
	d := decoder{b: x.tab.vars[s:e]}
	info := docInfo{path: vpath.Path(d.str()), entityType: d.str(), aliases: d.strs(), tags: d.strs()}
	if d.err != nil {
		info = docInfo{path: info.path} // damaged: the path alone, if it was read
	}
	info.title = titleOf(info.path)
	info.size, info.mtime, info.sum = x.stampOf(id)
	info.length = x.length(id)
	info.alive = x.alive(id)
	return info
}

// filter is document id's trigram filter.
func (x *postings) filter(id uint32) bloom {
	if int(id) >= x.tab.n {
		if k := int(id) - x.tab.n; k < len(x.filters) {
			return x.filters[k]
		}
		return nil
	}
	s, e := x.tab.span(id, recFilterEnd, true)
	return bloom(x.tab.filters[s:e:e])
}

// seq is document id's word sequence.
func (x *postings) seq(id uint32) []byte {
	if int(id) >= x.tab.n {
		if k := int(id) - x.tab.n; k < len(x.seqs) {
			return x.seqs[k]
		}
		return nil
	}
	s, e := x.tab.span(id, recSeqEnd, true)
	return x.tab.seqs[s:e:e]
}

// lookup returns the id of the live document at p.
func (x *postings) lookup(p vpath.Path) (uint32, bool) {
	if id, ok := x.byPath[p]; ok {
		return id, true
	}
	i := x.searchSorted(string(p))
	if i >= x.tab.n {
		return 0, false
	}
	id := x.sortedAt(i)
	if string(x.tab.pathBytes(id)) != string(p) {
		return 0, false
	}
	return id, x.alive(id)
}

// sortedAt is the i-th persisted id in path order.
func (x *postings) sortedAt(i int) uint32 { return binary.LittleEndian.Uint32(x.tab.sorted[4*i:]) }

// searchSorted returns the first position in path order whose path is not below p.
func (x *postings) searchSorted(p string) int {
	return sort.Search(x.tab.n, func(i int) bool { return string(x.tab.pathBytes(x.sortedAt(i))) >= p })
}

// persistedUnder returns the ids of the live persisted documents at or below p, found
// in the table's path order; the documents entered since are the caller's.
func (x *postings) persistedUnder(p vpath.Path) []uint32 {
	var out []uint32
	if id, ok := x.lookupPersisted(p); ok {
		out = append(out, id)
	}
	prefix := string(p) + "/"
	for k := x.searchSorted(prefix); k < x.tab.n; k++ {
		id := x.sortedAt(k)
		if !strings.HasPrefix(string(x.tab.pathBytes(id)), prefix) {
			break
		}
		if x.alive(id) {
			out = append(out, id)
		}
	}
	return out
}

// lookupPersisted is lookup among the persisted documents only.
func (x *postings) lookupPersisted(p vpath.Path) (uint32, bool) {
	i := x.searchSorted(string(p))
	if i >= x.tab.n {
		return 0, false
	}
	id := x.sortedAt(i)
	return id, string(x.tab.pathBytes(id)) == string(p) && x.alive(id)
}
