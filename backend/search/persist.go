package search

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/memotree/memotree/backend/internal/parts"
	"github.com/memotree/memotree/backend/vault"
)

// indexFile is where the index is persisted among the vault's caches (vault.WriteCache:
// .memotree, or outside the vault until its first write).
const indexFile = "search/index.bin"

// magic starts the file; the last byte is the format version. The file's generation
// follows: 8 bytes, little-endian, new at every save (see vouch.go).
var magic = []byte("MTSEARCH\x13")

// errFormat reports a persisted index this version cannot read; it is rebuilt.
var errFormat = errors.New("search index: unknown or damaged file format")

// Save writes the index to the vault's caches atomically, if it changed since the last save.
func (ix *Index) Save() error { return ix.save(false) }

// save writes the index if it changed since the last save, or always when force.
func (ix *Index) save(force bool) error {
	if ix.opts.SaveDelay < 0 {
		return nil
	}
	ix.saveMu.Lock()
	defer ix.saveMu.Unlock()
	settled := ix.settledChanges() // before the snapshot: what it is sure to hold
	ix.mu.RLock()
	ver := ix.version
	if ver == ix.savedVer && !force {
		ix.mu.RUnlock()
		return nil
	}
	gen := newGen()
	data := encode(ix.x, gen)
	ix.mu.RUnlock()
	if err := ix.v.WriteCache(indexFile, data); err != nil {
		return fmt.Errorf("save search index: %w", err)
	}
	ix.savedVer = ver
	ix.saved(gen, settled)
	return nil
}

// scheduleSave applies what changed and saves in the background SaveDelay after the
// last change.
func (ix *Index) scheduleSave() {
	if ix.opts.SaveDelay < 0 {
		return
	}
	ix.timerMu.Lock()
	defer ix.timerMu.Unlock()
	if ix.closed {
		return
	}
	if ix.saveTimer != nil {
		ix.saveTimer.Stop()
	}
	ix.saveTimer = time.AfterFunc(ix.opts.SaveDelay, func() {
		// Best effort: what fails is tried again by the next query or reopen.
		if ix.Refresh(context.Background()) == nil {
			_ = ix.Save()
		}
	})
}

// encoder appends the binary form.
type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) strs(ss []string) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

// encode writes the live documents (renumbered) and their postings. After the magic
// and the generation the file holds: the number of documents and the lengths of the
// areas that follow; a fixed record per document (docs.go) and the ids in path
// order; the documents' variable parts (path, type, aliases, tags); every gram
// filter (trigrams.go); every word sequence; then the term dictionary (dict.go): the
// number of terms and the lengths of its areas, the ends of its runs of terms in byte
// order, the block offsets, each term (front-coded) with its posting list (lists.go),
// and the name lists (the documents holding a term in their title or an alias). Loading decodes nothing per document or term: both
// are read where they lie, and a query touches the pages it needs.
func encode(x *postings, gen uint64) []byte {
	n := x.n()
	remap := make([]uint32, n)
	var live []uint32 // old ids of the live documents, in order
	for i := range n {
		if x.alive(uint32(i)) {
			remap[i] = uint32(len(live))
			live = append(live, uint32(i))
		} else {
			remap[i] = ^uint32(0)
		}
	}
	tidMap, byNew, runs, renumbered := x.saveOrder(live)
	// The dictionary is written on another core while the rest is.
	dictDone := make(chan []byte, 1)
	go func() {
		d := &encoder{}
		encodeDict(d, x, remap, byNew, runs)
		dictDone <- d.b
	}()
	seqs := x.savedSeqs(live, tidMap, renumbered)
	records := make([]byte, docRecordSize*len(live))
	vars := &encoder{b: make([]byte, 0, 64*len(live))}
	var filtersLen, seqsLen int
	for k, old := range live {
		d := x.info(old)
		vars.str(string(d.path))
		vars.str(d.entityType)
		vars.strs(d.aliases)
		vars.strs(d.tags)
		filtersLen += len(x.filter(old))
		seqsLen += len(seqs[k])
		r := records[k*docRecordSize:]
		binary.LittleEndian.PutUint32(r[recVarEnd:], uint32(len(vars.b)))
		binary.LittleEndian.PutUint32(r[recLength:], math.Float32bits(d.length))
		binary.LittleEndian.PutUint64(r[recSize:], uint64(d.size))
		binary.LittleEndian.PutUint64(r[recMtime:], uint64(d.mtime))
		binary.LittleEndian.PutUint64(r[recSum:], d.sum)
		binary.LittleEndian.PutUint64(r[recFilterEnd:], uint64(filtersLen))
		binary.LittleEndian.PutUint64(r[recSeqEnd:], uint64(seqsLen))
	}
	sorted := make([]uint32, len(live))
	paths := make([]string, len(live))
	for k, old := range live {
		sorted[k], paths[k] = uint32(k), string(x.path(old))
	}
	slices.SortFunc(sorted, func(a, b uint32) int { return strings.Compare(paths[a], paths[b]) })
	dictBytes := <-dictDone
	size := len(magic) + 8 + 64 + len(records) + 4*len(sorted) + len(vars.b) + filtersLen + seqsLen + len(dictBytes)
	for _, t := range x.names {
		size += len(t) + 8
	}
	e := &encoder{b: make([]byte, 0, size)}
	e.b = append(e.b, magic...)
	e.b = binary.LittleEndian.AppendUint64(e.b, gen)
	e.uvarint(uint64(len(live)))
	e.uvarint(uint64(len(vars.b)))
	e.uvarint(uint64(filtersLen))
	e.uvarint(uint64(seqsLen))
	e.b = append(e.b, records...)
	for _, id := range sorted {
		e.b = binary.LittleEndian.AppendUint32(e.b, id)
	}
	e.b = append(e.b, vars.b...)
	for _, old := range live {
		e.b = append(e.b, x.filter(old)...)
	}
	for _, s := range seqs {
		e.b = append(e.b, s...)
	}
	e.b = append(e.b, dictBytes...)
	return e.b
}

// maxRuns caps the runs of terms in byte order a dictionary has (dict.go): a save
// that would make more numbers every term afresh, rewriting every word sequence.
const maxRuns = 16

// saveOrder numbers the terms for a save: the persisted ones keep their ids (but when
// their runs would be too many), those entered since follow, the most frequent in
// the word sequences first, and within the ids of each size in byte order. It returns
// the new id of each id, the old id of each new one, the ends of the runs, and
// whether the persisted terms were numbered afresh.
func (x *postings) saveOrder(live []uint32) (tidMap, byNew []uint32, runs []int, renumbered bool) {
	keep := x.dict.n
	byNew, runs = x.numbered(keep, func(id uint32) uint32 { return x.occ[int(id)-x.dict.n] })
	if keep > 0 && len(runs) > maxRuns {
		keep = 0
		all := x.occurrences(live)
		byNew, runs = x.numbered(0, func(id uint32) uint32 { return all[id] })
	}
	tidMap = make([]uint32, len(byNew))
	for nw, old := range byNew {
		tidMap[old] = uint32(nw)
	}
	return tidMap, byNew, runs, keep < x.dict.n
}

// numbered returns the old id of each new one, the ids from keep on ordered by occ
// (most first) and within each tier of seqTierEnds by their terms, and the ends of
// the runs.
func (x *postings) numbered(keep int, occ func(id uint32) uint32) (byNew []uint32, runs []int) {
	nt := x.numTerms()
	byNew = make([]uint32, nt)
	for i := range keep {
		byNew[i] = uint32(i)
	}
	// Most occurrences first, then by id (as a stable sort would), as one key each:
	// a vault of names has millions of terms.
	keys := make([]uint64, nt-keep)
	for i := range keys {
		id := uint32(keep + i)
		keys[i] = uint64(^occ(id))<<32 | uint64(id)
	}
	slices.Sort(keys)
	for i, k := range keys {
		byNew[keep+i] = uint32(k)
	}
	if keep > 0 {
		runs = slices.Clone(x.dict.runs)
	}
	for lo := keep; lo < nt; {
		hi := nt
		for _, t := range seqTierEnds {
			if t > lo {
				hi = min(hi, t)
				break
			}
		}
		sortByTerm(byNew[lo:hi], x.term)
		runs = append(runs, hi)
		lo = hi
	}
	return byNew, runs
}

// A save sorts and encodes its terms on every core from parallelTerms terms, and
// renumbers the documents' word sequences so from parallelDocs documents (variables:
// a test makes every save parallel).
var (
	parallelTerms = 1 << 16
	parallelDocs  = 4096
)

// sortByTerm sorts ids by their terms, on every core when they are many.
func sortByTerm(ids []uint32, term func(uint32) string) {
	type keyed struct {
		key  uint64 // the term's first 8 bytes, big-endian: most comparisons end there
		term string
		id   uint32
	}
	refs := make([]keyed, len(ids))
	for k, id := range ids {
		t := term(id)
		var b [8]byte
		copy(b[:], t)
		refs[k] = keyed{binary.BigEndian.Uint64(b[:]), t, id}
	}
	byTerm := func(a, b keyed) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	}
	k := parts.Count(len(refs), parallelTerms)
	// Each part sorted on a core of its own, then merged, two at a time.
	parts.Run(k, len(refs), func(_, from, to int) { slices.SortFunc(refs[from:to], byTerm) })
	runs := make([][]keyed, k)
	for i := range k {
		from, to := parts.Bounds(k, len(refs), i)
		runs[i] = refs[from:to]
	}
	for len(runs) > 1 {
		var next [][]keyed
		for i := 0; i+1 < len(runs); i += 2 {
			a, b := runs[i], runs[i+1]
			m := make([]keyed, 0, len(a)+len(b))
			for len(a) > 0 && len(b) > 0 {
				if byTerm(b[0], a[0]) < 0 {
					m, b = append(m, b[0]), b[1:]
				} else {
					m, a = append(m, a[0]), a[1:]
				}
			}
			next = append(next, append(append(m, a...), b...))
		}
		if len(runs)%2 == 1 {
			next = append(next, runs[len(runs)-1])
		}
		runs = next
	}
	for i, r := range runs[0] {
		ids[i] = r.id
	}
}

// occurrences counts the words of every term in the live documents' sequences.
func (x *postings) occurrences(live []uint32) []uint32 {
	out := make([]uint32, x.numTerms())
	for _, id := range live {
		seq := x.seq(id)
		for i := 0; i < len(seq); {
			t, next, ok := seqNext(seq, i)
			if !ok {
				break
			}
			if int(t) < len(out) {
				out[t]++
			}
			i = next
		}
	}
	return out
}

// savedSeqs returns the word sequences of the live documents with their terms
// renumbered by tidMap: those persisted hold persisted terms only, whose ids stay
// unless all were renumbered.
func (x *postings) savedSeqs(live, tidMap []uint32, all bool) [][]byte {
	out := make([][]byte, len(live))
	parts.Run(parts.Count(len(live), parallelDocs), len(live), func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			if old := live[k]; int(old) < x.tab.n && !all {
				out[k] = x.seq(old)
			} else {
				out[k] = remapSeq(x.seq(old), tidMap)
			}
		}
	})
	return out
}

// encodeEntries writes the dictionary's entries of the terms byNew[lo:hi] (lo at the
// start of a block), and the offsets of the blocks that start among them.
func encodeEntries(x *postings, remap, byNew []uint32, runs []int, lo, hi int) (entries, blocks []byte) {
	e := &encoder{b: make([]byte, 0, 16*(hi-lo))}
	sc := &saveScratch{}
	var prev []byte
	run, _ := slices.BinarySearch(runs, lo+1) // the runs that end at lo or before
	for nw := lo; nw < hi; nw++ {
		old := byNew[nw]
		if nw%dictBlock == 0 {
			blocks = binary.LittleEndian.AppendUint32(blocks, uint32(len(e.b)))
		}
		var t []byte
		if int(old) < x.dict.n {
			t, _ = x.dict.entry(old)
		} else {
			t = unsafe.Slice(unsafe.StringData(x.names[int(old)-x.dict.n]), len(x.names[int(old)-x.dict.n])) // read only
		}
		shared := 0
		if nw%dictBlock != 0 && (run == 0 || nw != runs[run-1]) {
			for shared < len(t) && shared < len(prev) && t[shared] == prev[shared] {
				shared++
			}
		}
		for run < len(runs) && nw+1 >= runs[run] {
			run++
		}
		e.uvarint(uint64(shared))
		e.uvarint(uint64(len(t) - shared))
		e.b = append(e.b, t[shared:]...)
		prev = t
		appendList(e, x.list(int(old)), remap, sc)
	}
	return e.b, blocks
}

// encodeDict writes the term dictionary (dict.go), the terms in the order byNew, in
// runs ending at runs.
func encodeDict(e *encoder, x *postings, remap, byNew []uint32, runs []int) {
	nt := len(byNew)
	// The entries in parts, one a core, each starting a block (which shares no
	// prefix with the entry before it), then put one after the other.
	type part struct{ entries, blocks []byte }
	nblocks := nt / dictBlock
	k := parts.Count(nt, parallelTerms)
	ps := make([]part, k)
	parts.Run(k, nblocks, func(i, from, to int) {
		lo, hi := from*dictBlock, to*dictBlock
		if i == k-1 {
			hi = nt
		}
		ps[i].entries, ps[i].blocks = encodeEntries(x, remap, byNew, runs, lo, hi)
	})
	entriesLen := 0
	blocks := make([]byte, 0, 4*((nt+dictBlock-1)/dictBlock))
	for _, p := range ps {
		base := uint32(entriesLen)
		for i := 0; i+4 <= len(p.blocks); i += 4 {
			blocks = binary.LittleEndian.AppendUint32(blocks, base+binary.LittleEndian.Uint32(p.blocks[i:]))
		}
		entriesLen += len(p.entries)
	}
	sc := &saveScratch{}
	names := x.nameLists(remap)
	nameIdx := &encoder{}
	nameArea := &encoder{}
	for nw, old := range byNew {
		if len(names[old]) == 0 {
			continue
		}
		ne := &encoder{}
		appendList(ne, names[old], remap, sc)
		nameArea.b = append(nameArea.b, listBody(ne.b)...)
		nameIdx.b = binary.LittleEndian.AppendUint32(nameIdx.b, uint32(nw))
		nameIdx.b = binary.LittleEndian.AppendUint32(nameIdx.b, uint32(len(nameArea.b)))
	}
	e.uvarint(uint64(nt))
	e.uvarint(uint64(entriesLen))
	e.uvarint(uint64(len(nameIdx.b)))
	e.uvarint(uint64(len(nameArea.b)))
	e.uvarint(uint64(len(runs)))
	prevEnd := 0
	for _, end := range runs {
		e.uvarint(uint64(end - prevEnd))
		prevEnd = end
	}
	e.b = append(e.b, blocks...)
	for _, p := range ps {
		e.b = append(e.b, p.entries...)
	}
	e.b = append(e.b, nameIdx.b...)
	e.b = append(e.b, nameArea.b...)
}

// listBody returns a list written by appendList without the length before it.
func listBody(b []byte) []byte {
	_, k := binary.Uvarint(b)
	return b[k:]
}

// nameLists returns, by term id, the documents (old ids, live ones, in order) holding
// the term in their title or an alias.
func (x *postings) nameLists(remap []uint32) [][]posting {
	out := make([][]posting, x.numTerms())
	add := func(tid, id uint32) {
		if remap[id] != ^uint32(0) {
			out[tid] = append(out[tid], posting{doc: id, tf: 1})
		}
	}
	for i := 0; i < len(x.dict.nameIdx); i += 8 {
		tid := binary.LittleEndian.Uint32(x.dict.nameIdx[i:])
		for _, p := range decodeList(x.dict.nameList(tid), x.n()) {
			add(tid, p.doc)
		}
	}
	for k, ts := range x.named {
		for _, t := range ts {
			if tid, ok := x.termID(t); ok {
				add(tid, uint32(x.tab.n+k))
			}
		}
	}
	return out
}

// appendList writes a posting list (lists.go), renumbered by remap (dead documents
// left out), with its length before it.
func appendList(e *encoder, list []posting, remap []uint32, sc *saveScratch) {
	body := encodeList(sc.out[:0], list, remap, &sc.listScratch)
	e.uvarint(uint64(len(body)))
	e.b = append(e.b, body...)
	sc.out = body
}

// saveScratch is space reused by appendList.
type saveScratch struct {
	listScratch
	out []byte
}

// decoder reads the binary form; any error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) fail() {
	d.err = errFormat
	d.b = nil
}

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) strs() []string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	var out []string
	for range n {
		out = append(out, d.str())
	}
	return out
}

// load reads the persisted index of v. The file is mapped into memory where the
// platform allows (mapFile): posting lists, word sequences and trigram filters are
// then used where they lie, and only the pages a query touches are read.
func load(v vault.State) (*postings, error) {
	data, release, err := mapFile(v, indexFile)
	if err != nil {
		return nil, err
	}
	x, err := decodeIndex(data)
	if err != nil {
		release()
		return nil, err
	}
	if release != nil {
		// Unmap once nothing can reach the index: every slice into data is held by x
		// (compaction copies what it keeps).
		runtime.AddCleanup(x, func(release func()) { release() }, release)
	}
	return x, nil
}

// decodeIndex decodes a persisted index; it keeps slices into data.
func decodeIndex(data []byte) (*postings, error) {
	if len(data) < len(magic)+8 || string(data[:len(magic)]) != string(magic) {
		return nil, errFormat
	}
	gen := binary.LittleEndian.Uint64(data[len(magic):])
	d := &decoder{b: data[len(magic)+8:]}
	nd, varsLen, filtersLen, seqsLen := d.uvarint(), d.uvarint(), d.uvarint(), d.uvarint()
	if d.err != nil || nd > uint64(len(d.b))/(docRecordSize+4) {
		return nil, errFormat
	}
	take := func(n uint64) []byte {
		if n > uint64(len(d.b)) {
			d.fail()
			return nil
		}
		b := d.b[:n:n]
		d.b = d.b[n:]
		return b
	}
	x := newPostings()
	x.gen = gen
	t := &x.tab
	t.n = int(nd)
	t.records = take(nd * docRecordSize)
	t.sorted = take(nd * 4)
	t.vars = take(varsLen)
	// The records and path order are read by every lookup; the variable parts by
	// most: their pages are mapped in one system call.
	prefault(data[:len(data)-len(d.b)])
	t.filters = take(filtersLen)
	seqStart := len(data) - len(d.b)
	t.seqs = take(seqsLen)
	if d.err != nil || !t.check() {
		return nil, errFormat
	}
	for id := range uint32(nd) {
		x.total += float64(x.length(id))
	}
	x.live = t.n
	// The pages holding the sequences, whole: madvise wants a page-aligned start.
	x.seqPages = data[seqStart&^(os.Getpagesize()-1) : seqStart+len(t.seqs)]
	nt, entriesLen, nameIdxLen, namesLen := d.uvarint(), d.uvarint(), d.uvarint(), d.uvarint()
	if d.err != nil || nt > uint64(len(d.b))/4 {
		return nil, errFormat
	}
	x.dict = dict{n: int(nt)}
	nr := d.uvarint()
	if d.err != nil || nr > nt {
		return nil, errFormat
	}
	end := uint64(0)
	for range nr {
		end += d.uvarint()
		if end > nt {
			return nil, errFormat
		}
		x.dict.runs = append(x.dict.runs, int(end))
	}
	x.dict.blocks = take((nt + dictBlock - 1) / dictBlock * 4)
	x.dict.entries = take(entriesLen)
	x.dict.nameIdx = take(nameIdxLen)
	x.dict.names = take(namesLen)
	if d.err != nil || len(d.b) != 0 || !x.dict.check() {
		return nil, errFormat
	}
	return x, nil
}
