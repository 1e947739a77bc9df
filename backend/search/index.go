// Package search is MemoTree's full-text index of one library: BM25F ranking over a
// note's title, aliases, tags, headings, properties and body, with Chinese, Japanese
// and Korean text indexed as character bigrams (and single characters), phrase and
// prefix queries, highlighted snippets, and a trigram index that narrows regular
// expression searches to the notes that can match.
//
// The index is our own, in memory, persisted among the vault's caches (.memotree; see
// persist.go), and kept current incrementally: Changed marks paths whose files
// changed (the library's change notifications call it) and the next query re-reads
// only those. Reopening a vault re-reads only the files whose size, modification
// time or content fingerprint changed; the persisted documents are used where they
// lie in the mapped file (docs.go), so a reopen decodes nothing per note. A process
// opening the index while another MemoTree process watches the vault asks that one
// which notes changed since the file was written, instead of walking the vault
// (vouch.go).
//
// Concurrency: an Index is safe for concurrent use. Queries share a read lock; applying
// changes takes the write lock briefly, after the changed files were read and analysed
// outside it. Saving runs on its own goroutine and never blocks a query.
package search

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/vpath"
)

// docInfo is what the index keeps of one note entered in memory (a persisted note is
// read from the file's table: docs.go).
type docInfo struct {
	path       vpath.Path
	title      string
	entityType string
	aliases    []string
	tags       []string
	size       int64
	mtime      int64 // modification time, Unix nanoseconds
	sum        uint64
	length     float32 // weighted number of terms
	alive      bool
}

// nameTerms returns the sorted, distinct terms of a title and aliases.
func nameTerms(title string, aliases []string) []string {
	var out []string
	var scratch []byte
	add := func(t []byte) { out = append(out, string(t)) }
	scratch = termsOf([]byte(title), add, scratch)
	for _, a := range aliases {
		scratch = termsOf([]byte(a), add, scratch)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// posting is one document holding a term, with the term's weighted frequency there.
type posting struct {
	doc uint32
	tf  float32
}

// postings is the inverted index proper; it is guarded by Index.mu.
type postings struct {
	gen uint64 // the generation of the file it was loaded from (0: built here)
	// tab is the persisted documents (ids below tab.n), used where they lie;
	// deadBits marks those removed since, stamps those re-stamped since.
	tab      docTable
	deadBits []uint64
	stamps   map[uint32]stamp
	// docs are the documents entered since the index was loaded (ids from tab.n), with
	// their trigram filters, word sequences (seq.go: the forward index that phrase
	// queries check) and name terms.
	docs    []docInfo
	filters []bloom
	seqs    [][]byte
	named   [][]string
	byPath  map[vpath.Path]uint32 // the live documents among docs
	terms   map[string]uint32
	lists   [][]posting
	// raw holds the persisted part of each list, decoded by list when needed; lists
	// holds what was added since (or the whole list of an index built here).
	raw   [][]byte
	names []string // term id → term
	live  int
	total float64 // sum of live documents' lengths
	dead  int
	// deadTotal is the sum of dead documents' lengths: one huge document removed is
	// as much room as many small ones.
	deadTotal float64
	// The name index: which documents hold a term in their title or an alias. The
	// persisted part is one list per term (nameRaw, decoded when a query needs it),
	// byName the documents entered since. The name terms of a persisted document are
	// computed when a phrase query first needs them (namedOld, guarded by namesMu).
	nameRaw  [][]byte
	byName   map[string][]uint32
	namesMu  sync.Mutex
	namedOld map[uint32][]string
	// seqPages are the pages of the persisted word sequences; seqMapped says they were
	// mapped in whole (guarded by seqMu), which a search that scans many sequences
	// asks for once.
	seqPages  []byte
	seqMu     sync.Mutex
	seqMapped bool

	sortMu sync.Mutex
	sorted []string // terms in order, for prefix queries; nil when stale (guarded by sortMu)
}

func newPostings() *postings {
	return &postings{byPath: map[vpath.Path]uint32{}, terms: map[string]uint32{}, byName: map[string][]uint32{}}
}

// add enters a document (which must not be present).
func (x *postings) add(a analyzed, grams bloom) {
	id := uint32(x.n())
	x.docs = append(x.docs, a.info)
	x.named = append(x.named, a.named)
	x.filters = append(x.filters, grams)
	x.byPath[a.info.path] = id
	gids := make([]uint32, len(a.terms))
	for i, t := range a.terms {
		// The id looked up while the note was analysed, when the term had one then
		// in these postings: ids never change but by compaction, which makes new
		// postings (an entry read before it is looked up again).
		tid, ok := noTerm, false
		if a.idsOf == x && i < len(a.ids) && a.ids[i] != noTerm {
			tid, ok = a.ids[i], true
		} else {
			tid, ok = x.terms[t.term]
		}
		if !ok {
			term := strings.Clone(t.term) // t.term lies in the note's arena
			tid = uint32(len(x.lists))
			x.terms[term] = tid
			x.lists = append(x.lists, nil)
			x.names = append(x.names, term)
			x.sortMu.Lock()
			x.sorted = nil
			x.sortMu.Unlock()
		}
		x.lists[tid] = append(x.lists[tid], posting{doc: id, tf: t.tf}) // after the persisted part (list)
		gids[i] = tid
	}
	seq := make([]byte, 0, 2*len(a.seq))
	for _, l := range a.seq {
		g := seqBreak
		if l != seqBreak {
			g = gids[l]
		}
		seq = appendSeq(seq, g)
	}
	x.seqs = append(x.seqs, seq)
	for _, t := range a.named {
		x.byName[t] = append(x.byName[t], id)
	}
	x.live++
	x.total += float64(a.info.length)
}

// remove drops the document at p, if present; its postings stay until compaction
// and are skipped by queries.
func (x *postings) remove(p vpath.Path) {
	id, ok := x.lookup(p)
	if !ok {
		return
	}
	if d := x.added(id); d != nil {
		d.alive = false
		delete(x.byPath, p)
	} else {
		if x.deadBits == nil {
			x.deadBits = make([]uint64, (x.tab.n+63)/64)
		}
		x.deadBits[id>>6] |= 1 << (id & 63)
	}
	l := float64(x.length(id))
	x.live--
	x.dead++
	x.total -= l
	x.deadTotal += l
}

// list returns the postings of term tid: its persisted part, decoded (without keeping
// the result: readers share the lock), then those added since the index was loaded,
// which hold later documents. Adding a note never decodes a persisted list: the
// lists of its common words hold most of the vault.
func (x *postings) list(tid int) []posting {
	l := x.lists[tid]
	if tid >= len(x.raw) || x.raw[tid] == nil {
		return l
	}
	old := decodeList(x.raw[tid], x.n())
	if len(l) == 0 {
		return old
	}
	return append(old[:len(old):len(old)], l...)
}

// nameDocs returns the documents holding term in their title or an alias (dead ones
// too), in id order.
func (x *postings) nameDocs(term string) []uint32 {
	var out []uint32
	if tid, ok := x.terms[term]; ok && int(tid) < len(x.nameRaw) && x.nameRaw[tid] != nil {
		for _, p := range decodeList(x.nameRaw[tid], x.n()) {
			out = append(out, p.doc)
		}
	}
	return append(out, x.byName[term]...)
}

// nameTermsOf returns the terms of document id's title and aliases, sorted. The
// caller holds Index.mu, for reading or writing.
func (x *postings) nameTermsOf(id uint32) []string {
	if int(id) >= x.tab.n {
		return x.named[int(id)-x.tab.n]
	}
	x.namesMu.Lock()
	defer x.namesMu.Unlock()
	if t, ok := x.namedOld[id]; ok {
		return t
	}
	d := x.info(id)
	t := nameTerms(d.title, d.aliases)
	if x.namedOld == nil {
		x.namedOld = map[uint32][]string{}
	}
	x.namedOld[id] = t
	return t
}

// hasName reports whether term is a term of document id's title or aliases. The
// caller holds Index.mu.
func (x *postings) hasName(id uint32, term string) bool {
	_, ok := slices.BinarySearch(x.nameTermsOf(id), term)
	return ok
}

// needsCompaction reports whether dead documents take too much room: many of them, or
// many words in them (a deleted 20 MB note of 500,000 distinct names kept 50 MB of
// postings otherwise, since one dead document never reached the count).
func (x *postings) needsCompaction() bool {
	return x.dead > 1000 && x.dead > x.live/4 || x.deadTotal > 1<<16 && x.deadTotal > x.total/4
}

// compact rebuilds the index without dead documents, all in memory.
func (x *postings) compact() *postings {
	y := newPostings()
	n := x.n()
	remap := make([]uint32, n)
	for i := range n {
		id := uint32(i)
		if !x.alive(id) {
			remap[i] = ^uint32(0)
			continue
		}
		remap[i] = uint32(len(y.docs))
		d := x.info(id)
		y.byPath[d.path] = remap[i]
		y.docs = append(y.docs, d)
		y.named = append(y.named, x.nameTermsOf(id))
		y.filters = append(y.filters, bytes.Clone(x.filter(id))) // a copy: it may lie in the mapped file
		y.total += float64(d.length)
	}
	y.live = len(y.docs)
	tidMap := make([]uint32, len(x.lists))
	for tid := range x.lists {
		list := x.list(tid)
		var out []posting
		for _, p := range list {
			if r := remap[p.doc]; r != ^uint32(0) {
				out = append(out, posting{doc: r, tf: p.tf})
			}
		}
		if len(out) == 0 {
			continue
		}
		tidMap[tid] = uint32(len(y.lists))
		y.terms[x.names[tid]] = uint32(len(y.lists))
		y.lists = append(y.lists, out)
		y.names = append(y.names, x.names[tid])
	}
	y.seqs = make([][]byte, len(y.docs))
	for old, r := range remap {
		if r != ^uint32(0) {
			y.seqs[r] = remapSeq(x.seq(uint32(old)), tidMap)
		}
	}
	for id, ts := range y.named {
		for _, t := range ts {
			y.byName[t] = append(y.byName[t], uint32(id))
		}
	}
	return y
}

// withPrefix returns the ids of the terms starting with prefix, at most limit, the
// most frequent first.
func (x *postings) withPrefix(prefix string, limit int) []uint32 {
	var ids []uint32
	for _, t := range x.termsWithPrefix(prefix) {
		ids = append(ids, x.terms[t])
	}
	if len(ids) > limit {
		slices.SortFunc(ids, func(a, b uint32) int { return x.listLen(b) - x.listLen(a) })
		ids = ids[:limit]
	}
	return ids
}

// termsWithPrefix returns every term starting with prefix.
func (x *postings) termsWithPrefix(prefix string) []string {
	x.sortMu.Lock()
	if x.sorted == nil {
		x.sorted = slices.Clone(x.names)
		slices.Sort(x.sorted)
	}
	sorted := x.sorted
	x.sortMu.Unlock()
	i := sort.SearchStrings(sorted, prefix)
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j], prefix) {
		j++
	}
	return sorted[i:j]
}

// listLen is the length of term tid's list, without decoding it.
func (x *postings) listLen(tid uint32) int {
	l := x.lists[tid]
	if int(tid) >= len(x.raw) || x.raw[tid] == nil {
		return len(l)
	}
	n, _ := binary.Uvarint(x.raw[tid])
	return int(n) + len(l)
}
