// Package search is MemoTree's full-text index of one library: BM25F ranking over a
// note's title, aliases, tags, headings, properties and body, with Chinese, Japanese
// and Korean text indexed as character bigrams (and single characters), phrase and
// prefix queries, highlighted snippets, and a trigram index that narrows regular
// expression searches to the notes that can match.
//
// It also runs the searches of the mounted libraries (Engine, engine.go): an Index per
// library, opened on first use and following the library's changes (indexes.go), the
// ranked searches on it (ranked.go), and the glob and regular expression searches over
// the notes' text (pattern_*.go), which the trigrams narrow, literal and window
// prefilters skip, and RE2 and Go's regexp match, one page of notes at a time.
//
// The index is our own, in memory, persisted among the vault's caches (.memotree; see
// persist.go), and kept current incrementally: Changed marks paths whose files
// changed (the library's change notifications call it) and the next query re-reads
// only those. Reopening a vault re-reads only the files whose size, modification
// time or content fingerprint changed; the persisted documents and terms are used
// where they lie in the mapped file (docs.go, dict.go), so a reopen decodes nothing per
// note or term. A process
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
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/internal/parts"
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
	// The terms: those of the persisted dictionary (ids below dict.n, used where
	// they lie: dict.go) and those entered since (ids from dict.n: terms, names, and
	// their postings in lists, with their occurrences in word sequences in occ).
	// more holds the postings entered since for persisted terms. dictMap, when a
	// refresh is to read many notes, maps every persisted term to its id.
	dict    dict
	dictMap map[string]uint32
	terms   *termTable
	names   []string
	lists   [][]posting
	occ     []uint32
	more    map[uint32][]posting
	live    int
	total   float64 // sum of live documents' lengths
	dead    int
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
	sorted []string // terms entered since, in order, for prefix queries; nil when stale (guarded by sortMu)
}

func newPostings() *postings {
	return &postings{byPath: map[vpath.Path]uint32{}, terms: newTermTable(), byName: map[string][]uint32{}}
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
			tid, ok = x.termID(t.term)
		}
		if !ok {
			tid = x.newTerm(strings.Clone(t.term)) // t.term lies in the note's arena
		}
		x.addPosting(tid, posting{doc: id, tf: t.tf}) // after the persisted part (list)
		gids[i] = tid
		if k := int(tid) - x.dict.n; k >= 0 && i < len(a.occ) {
			x.occ[k] += a.occ[i]
		}
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
	if tid >= x.dict.n {
		return x.lists[tid-x.dict.n]
	}
	old := decodeList(x.dict.list(uint32(tid)), x.n())
	l := x.more[uint32(tid)]
	if len(l) == 0 {
		return old
	}
	return append(old[:len(old):len(old)], l...)
}

// nameDocs returns the documents holding term in their title or an alias (dead ones
// too), in id order.
func (x *postings) nameDocs(term string) []uint32 {
	var out []uint32
	if tid, ok := x.termID(term); ok && int(tid) < x.dict.n {
		if raw := x.dict.nameList(tid); raw != nil {
			for _, p := range decodeList(raw, x.n()) {
				out = append(out, p.doc)
			}
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
	tidMap := make([]uint32, x.numTerms())
	for tid := range tidMap {
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
		tidMap[tid] = y.newTerm(x.term(uint32(tid)))
		y.lists[tidMap[tid]] = out
	}
	y.seqs = make([][]byte, len(y.docs))
	for old, r := range remap {
		if r != ^uint32(0) {
			y.seqs[r] = remapSeq(x.seq(uint32(old)), tidMap)
			y.countOccurrences(y.seqs[r])
		}
	}
	for id, ts := range y.named {
		for _, t := range ts {
			y.byName[t] = append(y.byName[t], uint32(id))
		}
	}
	return y
}

// withPrefix returns the ids of the terms starting with prefix that some document
// holds, at most limit: the most frequent first, and among as frequent ones in byte
// order. A persisted term whose every document was removed stays in the dictionary
// with an empty list until the next compaction; it is left out, so that a saved
// index expands a prefix as an index built afresh does.
func (x *postings) withPrefix(prefix string, limit int) []uint32 {
	type counted struct{ id, n uint32 }
	var terms []counted
	for _, r := range x.prefixTerms(prefix) {
		if n := x.listLen(r.id); n > 0 {
			terms = append(terms, counted{r.id, uint32(n)})
		}
	}
	if len(terms) > limit {
		slices.SortStableFunc(terms, func(a, b counted) int { return cmp.Compare(b.n, a.n) })
		terms = terms[:limit]
	}
	ids := make([]uint32, len(terms))
	for i, t := range terms {
		ids[i] = t.id
	}
	return ids
}

// termsWithPrefix returns every term starting with prefix, in order.
func (x *postings) termsWithPrefix(prefix string) []string {
	refs := x.prefixTerms(prefix)
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.term
	}
	return out
}

// prefixTerms returns every term starting with prefix with its id, in order: the
// persisted dictionary's merged with the terms entered since, sorted.
func (x *postings) prefixTerms(prefix string) []termRef {
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
	added := sorted[i:j]
	var old []termRef
	if x.dict.n > 0 {
		old = x.dict.withPrefix(prefix)
	}
	out := make([]termRef, 0, len(old)+len(added))
	for _, r := range old {
		for len(added) > 0 && added[0] < r.term {
			id, _ := x.terms.get(added[0])
			out, added = append(out, termRef{added[0], id}), added[1:]
		}
		out = append(out, r)
	}
	for _, t := range added {
		id, _ := x.terms.get(t)
		out = append(out, termRef{t, id})
	}
	return out
}

// listLen is the length of term tid's list, without decoding it.
func (x *postings) listLen(tid uint32) int {
	if int(tid) >= x.dict.n {
		return len(x.lists[int(tid)-x.dict.n])
	}
	n, _ := binary.Uvarint(x.dict.list(tid))
	return int(n>>1) + len(x.more[tid])
}

// numTerms is the number of term ids.
func (x *postings) numTerms() int { return x.dict.n + len(x.names) }

// termID returns the id of term t.
func (x *postings) termID(t string) (uint32, bool) {
	if id, ok := x.terms.get(t); ok {
		return id, true
	}
	if x.dictMap != nil {
		id, ok := x.dictMap[t]
		return id, ok
	}
	if x.dict.n > 0 {
		return x.dict.find(t)
	}
	return 0, false
}

// term returns the term of id tid.
func (x *postings) term(tid uint32) string {
	if int(tid) >= x.dict.n {
		return x.names[int(tid)-x.dict.n]
	}
	t, _ := x.dict.entry(tid)
	return string(t)
}

// parallelScanTerms is the fewest persisted terms a scan shares among the cores
// (termsWhere; a variable for a test).
var parallelScanTerms = 1 << 18

// termsWhere returns the ids of the terms that match holds for, in no order; over
// says there are more than limit, and then the ids are not all of them. The
// persisted dictionary is scanned on every core (3.9M terms of a vault of code take
// 27 ms on one); match is called from several goroutines.
func (x *postings) termsWhere(match func(t []byte) bool, limit int) (ids []uint32, over bool) {
	var (
		mu    sync.Mutex
		found atomic.Int64
	)
	blocks := (x.dict.n + dictBlock - 1) / dictBlock
	parts.Run(parts.Count(x.dict.n, parallelScanTerms), blocks, func(_, from, to int) {
		var mine []uint32
		end := min(to*dictBlock, x.dict.n)
		x.dict.each(from*dictBlock, func(t []byte, id uint32, _ []byte) bool {
			if int(id) >= end {
				return false
			}
			if match(t) {
				mine = append(mine, id)
				if found.Add(1) > int64(limit) {
					return false
				}
			}
			return true
		}, nil)
		mu.Lock()
		ids = append(ids, mine...)
		mu.Unlock()
	})
	for k := 0; found.Load() <= int64(limit) && k < len(x.names); k++ {
		if match([]byte(x.names[k])) {
			ids = append(ids, uint32(x.dict.n+k))
			found.Add(1)
		}
	}
	return ids, found.Load() > int64(limit)
}

// newTerm enters term t, which the index does not hold, and returns its id.
func (x *postings) newTerm(t string) uint32 {
	id := uint32(x.numTerms())
	x.names = append(x.names, t)
	x.lists = append(x.lists, nil)
	x.occ = append(x.occ, 0)
	x.terms.put(t, id) // last: an analysis may see it from now on
	x.sortMu.Lock()
	x.sorted = nil
	x.sortMu.Unlock()
	return id
}

// addPosting appends p to the list of term tid.
func (x *postings) addPosting(tid uint32, p posting) {
	if k := int(tid) - x.dict.n; k >= 0 {
		x.lists[k] = append(x.lists[k], p)
		return
	}
	if x.more == nil {
		x.more = map[uint32][]posting{}
	}
	x.more[tid] = append(x.more[tid], p)
}

// countOccurrences counts the words of seq whose terms were entered since the load.
func (x *postings) countOccurrences(seq []byte) {
	for i := 0; i < len(seq); {
		id, next, ok := seqNext(seq, i)
		if !ok {
			return
		}
		if k := int(id) - x.dict.n; id != seqBreak && k >= 0 && k < len(x.occ) {
			x.occ[k]++
		}
		i = next
	}
}

// mapDict maps every persisted term to its id, for a refresh that is to look up the
// terms of many notes (each lookup in the dictionary is a binary search in the
// mapped file). The caller holds Index.mu for writing.
func (x *postings) mapDict() {
	if x.dictMap != nil || x.dict.n == 0 {
		return
	}
	m := make(map[string]uint32, x.dict.n)
	x.dict.each(0, func(t []byte, id uint32, _ []byte) bool {
		m[string(t)] = id
		return true
	}, nil)
	x.dictMap = m
}
