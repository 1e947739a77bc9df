package search

import (
	"hash/crc64"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// Field weights of the ranking (BM25F): a term in a title counts as much as five in
// the body.
const (
	wTitle    = 5
	wAlias    = 4
	wTag      = 3
	wHeading  = 2
	wProperty = 1
	wBody     = 1
)

// crcTable is built on first use: building it at start-up cost every process,
// searching or not.
var crcTable = sync.OnceValue(func() *crc64.Table { return crc64.MakeTable(crc64.ECMA) })

// sumOf is the content fingerprint stored for every note.
func sumOf(data []byte) uint64 { return crc64.Checksum(data, crcTable()) }

// termFreq is one term of a document with its weighted frequency.
type termFreq struct {
	term string
	tf   float32
}

// analyzed is one note ready to enter the index.
type analyzed struct {
	info  docInfo
	named []string // the terms of the title and aliases, sorted (nameTerms)
	terms []termFreq
	// seq is the note's content, front matter and body, as the sequence of its words
	// (each Latin word and each CJK character), as indexes into terms. Nothing
	// separates the front matter from the body, so that a regular expression matching
	// across the fence is never ruled out.
	seq []uint32
	// occ counts the words of seq of each of terms (the merge adds them up per term,
	// not per word).
	occ []uint32
	// ids holds the index's term id of each of terms, looked up while the note was
	// analysed (under the index's read lock, in parallel with other notes), or
	// noTerm for a term the index did not hold then; idsOf is the postings they were
	// looked up in. Ids never change within one postings (compaction makes new ones).
	ids   []uint32
	idsOf *postings
}

// noTerm marks a term without an id yet.
const noTerm = ^uint32(0)

// lookupTerms fills a.ids from the index's terms: those entered since the load
// (under their table's own locks) and the persisted ones, in dictMap (x's, which the
// caller read under the index's lock: once set it is only read) or else in the
// dictionary. It needs no lock of the index: the merge enters other notes meanwhile.
func (x *postings) lookupTerms(a *analyzed, dictMap map[string]uint32) {
	a.ids, a.idsOf = make([]uint32, len(a.terms)), x
	for i := range a.ids {
		a.ids[i] = noTerm
	}
	x.terms.getMany(a.terms, a.ids)
	if x.dict.n == 0 {
		return
	}
	for i, t := range a.terms {
		if a.ids[i] != noTerm {
			continue
		}
		id, ok := uint32(0), false
		if dictMap != nil {
			id, ok = dictMap[t.term]
		} else {
			id, ok = x.dict.find(t.term)
		}
		if ok {
			a.ids[i] = id
		}
	}
}

// seqBreak in a word sequence would match no word (none is written today).
const seqBreak = ^uint32(0)

// analyzer turns notes into terms; it keeps scratch space and is not safe for
// concurrent use (analyzers come from analyzerPool).
type analyzer struct {
	ids     map[string]int32
	arena   arena // the bytes of this note's terms
	terms   []termFreq
	seq     []uint32
	scratch []byte
	length  float32
	weight  float32
}

var analyzerPool = sync.Pool{New: func() any { return &analyzer{ids: map[string]int32{}} }}

// arena holds the bytes of one note's distinct terms in a few blocks, so that a term
// costs no allocation of its own: the terms of an analysed note are strings into it,
// and the index copies those it keeps (postings.add), so the blocks go with the note.
// (An analyzer used to intern every term it had seen in a table of up to a million:
// on a vault whose vocabulary grows, looking terms up there was a quarter of a build.)
type arena struct {
	block []byte
	next  int // the size of the next block
}

// newArena returns an arena for the terms of a note of size bytes: its first block
// is a fraction of the note, and each next one twice the last.
func newArena(size int) arena { return arena{next: min(max(size/4, 256), 64<<10)} }

// str returns a string of b's bytes held in the arena.
func (ar *arena) str(b []byte) string {
	if len(b) > cap(ar.block)-len(ar.block) {
		ar.next = max(ar.next, 256)
		ar.block = make([]byte, 0, max(ar.next, len(b)))
		ar.next = min(2*ar.next, 1<<20)
	}
	start := len(ar.block)
	ar.block = append(ar.block, b...)
	return unsafe.String(unsafe.SliceData(ar.block[start:]), len(b))
}

// add counts one term at the current weight and returns its index in a.terms.
func (a *analyzer) add(term []byte) int32 {
	id, ok := a.ids[string(term)] // no allocation for the lookup
	if !ok {
		s := ""
		if len(term) > 0 {
			s = a.arena.str(term)
		}
		id = int32(len(a.terms))
		a.ids[s] = id
		a.terms = append(a.terms, termFreq{term: s})
	}
	a.terms[id].tf += a.weight
	a.length += a.weight
	return id
}

// text feeds text at weight w: every word, and the bigrams of adjacent CJK
// characters; content texts also extend the word sequence.
func (a *analyzer) text(b []byte, w float32, content bool) {
	a.weight = w
	s := wordScanner{text: b}
	prevStart, prevEnd := -1, -1
	for {
		word, start, end, cjk, ok := s.next()
		if !ok {
			return
		}
		id := a.add(word)
		if content {
			a.seq = append(a.seq, uint32(id))
		}
		if !cjk {
			prevEnd = -1
			continue
		}
		if start == prevEnd {
			a.scratch = append(append(a.scratch[:0], b[prevStart:prevEnd]...), word...)
			a.add(a.scratch)
		}
		prevStart, prevEnd = start, end
	}
}

// analyze parses a note and returns its index entry; data may be reused afterwards.
func (a *analyzer) analyze(p vpath.Path, data []byte) analyzed {
	n := note.ParseLean(data) // the index keeps no property values
	clear(a.ids)
	a.arena = newArena(len(data)) // the last note's terms are the index's until it applies them
	a.terms, a.seq, a.length = a.terms[:0], a.seq[:0], 0
	info := docInfo{path: p, title: titleOf(p), entityType: n.EntityType, aliases: n.Aliases, alive: true}
	a.text([]byte(info.title), wTitle, false)
	for _, al := range n.Aliases {
		a.text([]byte(al), wAlias, false)
	}
	seen := map[string]bool{}
	for _, t := range n.Tags {
		if !seen[t.Name] {
			seen[t.Name] = true
			info.tags = append(info.tags, t.Name)
		}
		a.text([]byte(t.Name), wTag, false)
	}
	for _, h := range n.Headings {
		a.text([]byte(h.Text), wHeading, false)
	}
	if n.FrontMatterEnd > n.FrontMatterStart {
		a.text(data[n.FrontMatterStart:n.FrontMatterEnd], wProperty, true)
	}
	// Everything after the front matter is body, so that every word of the file is a
	// term (the pattern search relies on it).
	body := data
	if n.FrontMatterEnd > n.FrontMatterStart {
		body = data[min(n.FrontMatterEnd, len(data)):]
	}
	a.text(body, wBody, true)
	info.length = a.length
	occ := make([]uint32, len(a.terms))
	for _, l := range a.seq {
		if l != seqBreak {
			occ[l]++
		}
	}
	return analyzed{info: info, named: nameTerms(info.title, info.aliases), terms: slices.Clone(a.terms), seq: slices.Clone(a.seq), occ: occ}
}

// titleOf is a note's title: its file name without ".md".
func titleOf(p vpath.Path) string {
	base := path.Base(string(p))
	if i := strings.LastIndexByte(base, '.'); i > 0 && strings.EqualFold(base[i:], ".md") {
		return base[:i]
	}
	return base
}
