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
// time or content fingerprint changed.
//
// Concurrency: an Index is safe for concurrent use. Queries share a read lock; applying
// changes takes the write lock briefly, after the changed files were read and analysed
// outside it. Saving runs on its own goroutine and never blocks a query.
package search

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/vpath"
)

// docInfo is what the index keeps of one note.
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

// hasName reports whether term is a term of document id's title or aliases. The
// caller holds Index.mu and called nameIndex.
func (x *postings) hasName(id uint32, term string) bool {
	_, ok := slices.BinarySearch(x.named[id], term)
	return ok
}

// posting is one document holding a term, with the term's weighted frequency there.
type posting struct {
	doc uint32
	tf  float32
}

// postings is the inverted index proper; it is guarded by Index.mu.
type postings struct {
	docs   []docInfo
	byPath map[vpath.Path]uint32
	terms  map[string]uint32
	lists  [][]posting
	// raw holds the persisted form of lists not decoded yet (lists[t] is then nil);
	// list decodes them, and writers decode a list before changing it.
	raw   [][]byte
	names []string // term id → term
	live  int
	total float64 // sum of live documents' lengths
	dead  int
	// deadTotal is the sum of dead documents' lengths: one huge document removed is
	// as much room as many small ones.
	deadTotal float64
	grams     trigrams
	// The name index is built by the first query that needs it (nameIndex), not when
	// a persisted index is loaded: a pattern search never needs it.
	namesMu    sync.Mutex
	namesReady bool                // byName is complete (guarded by namesMu, or Index.mu held to write)
	named      [][]string          // by document: the terms of its title and aliases, sorted; nil: not computed yet
	byName     map[string][]uint32 // term of a title or alias → documents (dead ones too)
	// seqs holds each document's word sequence as varint term ids (seq.go: the
	// forward index that phrase queries check), by document id.
	seqs [][]byte
	// seqArea is where the persisted sequences lie in the mapped index file (nil
	// when not loaded from one); seqMapped says it was mapped in whole (guarded by
	// seqMu), which a search that scans many sequences asks for once.
	seqArea   []byte
	seqMu     sync.Mutex
	seqMapped bool

	sortMu sync.Mutex
	sorted []string // terms in order, for prefix queries; nil when stale (guarded by sortMu)
}

func newPostings() *postings {
	return &postings{byPath: map[vpath.Path]uint32{}, terms: map[string]uint32{}, grams: newTrigrams(), byName: map[string][]uint32{}, namesReady: true}
}

// add enters a document (which must not be present).
func (x *postings) add(a analyzed, grams bloom) {
	id := uint32(len(x.docs))
	x.docs = append(x.docs, a.info)
	x.named = append(x.named, a.named)
	x.byPath[a.info.path] = id
	gids := make([]uint32, len(a.terms))
	for i, t := range a.terms {
		// The id looked up while the note was analysed, when the term had one then
		// (ids never change until compaction, which happens under the write lock
		// after every entry read before it was applied: see readAndApply).
		tid, ok := noTerm, false
		if i < len(a.ids) && a.ids[i] != noTerm && int(a.ids[i]) < len(x.names) && x.names[a.ids[i]] == t.term {
			tid, ok = a.ids[i], true
		} else {
			tid, ok = x.terms[t.term]
		}
		if !ok {
			tid = uint32(len(x.lists))
			x.terms[t.term] = tid
			x.lists = append(x.lists, nil)
			x.names = append(x.names, t.term)
			x.sortMu.Lock()
			x.sorted = nil
			x.sortMu.Unlock()
		}
		x.decode(tid)
		x.lists[tid] = append(x.lists[tid], posting{doc: id, tf: t.tf})
		gids[i] = tid
	}
	x.grams.add(id, grams)
	seq := make([]byte, 0, 2*len(a.seq))
	for _, l := range a.seq {
		g := seqBreak
		if l != seqBreak {
			g = gids[l]
		}
		seq = appendSeq(seq, g)
	}
	x.seqs = append(x.seqs, seq)
	if x.namesReady {
		x.addNames(id)
	}
	x.live++
	x.total += float64(a.info.length)
}

// remove drops the document at p, if present; its postings stay until compaction
// and are skipped by queries.
func (x *postings) remove(p vpath.Path) {
	id, ok := x.byPath[p]
	if !ok {
		return
	}
	delete(x.byPath, p)
	d := &x.docs[id]
	d.alive = false
	x.live--
	x.dead++
	x.total -= float64(d.length)
	x.deadTotal += float64(d.length)
}

// list returns the postings of term tid, decoding them if they are still in their
// persisted form (without keeping the result: readers share the lock).
func (x *postings) list(tid int) []posting {
	if l := x.lists[tid]; l != nil || tid >= len(x.raw) || x.raw[tid] == nil {
		return l
	}
	return decodeList(x.raw[tid], len(x.docs))
}

// decode keeps the decoded form of term tid; the caller holds the write lock.
func (x *postings) decode(tid uint32) {
	if int(tid) < len(x.raw) && x.raw[tid] != nil {
		x.lists[tid] = decodeList(x.raw[tid], len(x.docs))
		x.raw[tid] = nil
	}
}

// addNames enters document id's name terms in byName.
func (x *postings) addNames(id uint32) {
	for _, t := range x.named[id] {
		x.byName[t] = append(x.byName[t], id)
	}
}

// nameIndex completes the name terms of every document and byName, once. The caller
// holds Index.mu, for reading or writing; concurrent readers build it once.
func (x *postings) nameIndex() {
	x.namesMu.Lock()
	defer x.namesMu.Unlock()
	if x.namesReady {
		return
	}
	x.byName = make(map[string][]uint32, len(x.docs))
	for id := range x.docs {
		if x.named[id] == nil {
			d := &x.docs[id]
			x.named[id] = nameTerms(d.title, d.aliases)
		}
		x.addNames(uint32(id))
	}
	x.namesReady = true
}

// needsCompaction reports whether dead documents take too much room: many of them, or
// many words in them (a deleted 20 MB note of 500,000 distinct names kept 50 MB of
// postings otherwise, since one dead document never reached the count).
func (x *postings) needsCompaction() bool {
	return x.dead > 1000 && x.dead > x.live/4 || x.deadTotal > 1<<16 && x.deadTotal > x.total/4
}

// compact rebuilds the index without dead documents.
func (x *postings) compact() *postings {
	y := newPostings()
	remap := make([]uint32, len(x.docs))
	for i, d := range x.docs {
		if !d.alive {
			remap[i] = ^uint32(0)
			continue
		}
		remap[i] = uint32(len(y.docs))
		y.byPath[d.path] = remap[i]
		y.docs = append(y.docs, d)
		y.named = append(y.named, x.named[i])
		y.total += float64(d.length)
	}
	y.namesReady = false // byName is rebuilt when first needed
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
	y.grams = x.grams.remap(remap)
	y.seqs = make([][]byte, len(y.docs))
	for old, r := range remap {
		if r == ^uint32(0) || old >= len(x.seqs) {
			continue
		}
		y.seqs[r] = remapSeq(x.seqs[old], tidMap)
	}
	return y
}

// withPrefix returns the ids of the terms starting with prefix, at most limit, the
// most frequent first.
func (x *postings) withPrefix(prefix string, limit int) []uint32 {
	x.sortMu.Lock()
	if x.sorted == nil {
		x.sorted = slices.Clone(x.names)
		slices.Sort(x.sorted)
	}
	sorted := x.sorted
	x.sortMu.Unlock()
	i := sort.SearchStrings(sorted, prefix)
	var ids []uint32
	for ; i < len(sorted) && strings.HasPrefix(sorted[i], prefix); i++ {
		ids = append(ids, x.terms[sorted[i]])
	}
	if len(ids) > limit {
		slices.SortFunc(ids, func(a, b uint32) int { return x.listLen(b) - x.listLen(a) })
		ids = ids[:limit]
	}
	return ids
}

// listLen is the length of term tid's list, without decoding it.
func (x *postings) listLen(tid uint32) int {
	if l := x.lists[tid]; l != nil || int(tid) >= len(x.raw) || x.raw[tid] == nil {
		return len(l)
	}
	n, _ := binary.Uvarint(x.raw[tid])
	return int(n)
}
