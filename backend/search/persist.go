package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// indexFile is where the index is persisted among the vault's caches (vault.WriteCache:
// .memotree, or outside the vault until its first write).
const indexFile = "search/index.bin"

// magic starts the file; the last byte is the format version.
var magic = []byte("MTSEARCH\x09")

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
	ix.mu.RLock()
	ver := ix.version
	if ver == ix.savedVer && !force {
		ix.mu.RUnlock()
		return nil
	}
	data := encode(ix.x)
	ix.mu.RUnlock()
	if err := ix.v.WriteCache(indexFile, data); err != nil {
		return fmt.Errorf("save search index: %w", err)
	}
	ix.savedVer = ver
	return nil
}

// scheduleSave saves in the background SaveDelay after the last change.
func (ix *Index) scheduleSave() {
	if ix.opts.SaveDelay < 0 {
		return
	}
	ix.saveMu.Lock()
	defer ix.saveMu.Unlock()
	if ix.closed {
		return
	}
	if ix.saveTimer != nil {
		ix.saveTimer.Stop()
	}
	ix.saveTimer = time.AfterFunc(ix.opts.SaveDelay, func() { _ = ix.Save() }) // best effort: a reopen reconciles
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

// encode writes the live documents (renumbered) and their postings. The file holds,
// in order: the length of the table of documents, the table (paths, properties and the lengths of their
// trigram filters and word sequences), every filter, every word sequence, and the
// terms with their posting lists. Loading reads the table only: a pattern search
// then touches the few filters and sequences it checks, not every page of the file.
func encode(x *postings) []byte {
	size := 1 << 16 // the output's size, estimated, so that the buffer never doubles
	for i, d := range x.docs {
		if d.alive && i < len(x.seqs) && i < len(x.grams.filters) {
			size += len(x.seqs[i]) + len(x.grams.filters[i]) + len(d.path) + 64
		}
	}
	for tid := range x.lists {
		size += len(x.names[tid]) + 8 + 3*x.listLen(uint32(tid))
	}
	e := &encoder{b: make([]byte, 0, size)}
	e.b = append(e.b, magic...)
	out := e
	e = &encoder{b: make([]byte, 0, 64*len(x.docs))} // the table, prefixed with its length below
	remap := make([]uint32, len(x.docs))
	e.uvarint(uint64(x.live))
	n := uint32(0)
	filter := func(i int) bloom {
		if i < len(x.grams.filters) {
			return x.grams.filters[i]
		}
		return nil
	}
	seq := func(i int) []byte {
		if i < len(x.seqs) {
			return x.seqs[i]
		}
		return nil
	}
	for i, d := range x.docs {
		if !d.alive {
			remap[i] = ^uint32(0)
			continue
		}
		remap[i] = n
		n++
		e.str(string(d.path))
		e.str(d.entityType)
		e.strs(d.aliases)
		e.strs(d.tags)
		e.varint(d.size)
		e.varint(d.mtime)
		e.uvarint(d.sum)
		e.uvarint(uint64(math.Float32bits(d.length)))
		e.uvarint(uint64(len(filter(i))))
		e.uvarint(uint64(len(seq(i))))
	}
	out.uvarint(uint64(len(e.b)))
	out.b = append(out.b, e.b...)
	e = out
	for i, d := range x.docs {
		if d.alive {
			e.b = append(e.b, filter(i)...)
		}
	}
	for i, d := range x.docs {
		if d.alive {
			e.b = append(e.b, seq(i)...)
		}
	}
	e.uvarint(uint64(len(x.lists)))
	var scratch []byte
	for tid := range x.lists {
		list := x.list(tid)
		live := 0
		for _, p := range list {
			if remap[p.doc] != ^uint32(0) {
				live++
			}
		}
		e.str(x.names[tid])
		pe := &encoder{b: scratch[:0]}
		pe.uvarint(uint64(live))
		prev := uint32(0)
		for _, p := range list {
			r := remap[p.doc]
			if r == ^uint32(0) {
				continue
			}
			// The gap to the previous document, shifted left; its low bit says the
			// term occurs once at weight 1 (most postings), else its weight follows.
			if p.tf == 1 {
				pe.uvarint(uint64(r-prev)<<1 | 1)
			} else {
				pe.uvarint(uint64(r-prev) << 1)
				pe.uvarint(uint64(p.tf))
			}
			prev = r
		}
		scratch = pe.b
		e.uvarint(uint64(len(pe.b)))
		e.b = append(e.b, pe.b...)
	}
	return e.b
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
func load(v *vault.Vault) (*postings, error) {
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
	if len(data) < len(magic) || string(data[:len(magic)]) != string(magic) {
		return nil, errFormat
	}
	d := &decoder{b: data[len(magic):]}
	table := d.uvarint()
	if d.err != nil || table > uint64(len(d.b)) {
		return nil, errFormat
	}
	prefault(data[:len(data)-len(d.b)+int(table)]) // every page of the table is read next
	x := newPostings()
	x.namesReady = false // nameIndex builds the name index when a query first needs it
	nd := d.uvarint()
	if nd > uint64(len(d.b)) {
		return nil, errFormat
	}
	x.docs = make([]docInfo, 0, nd)
	x.named = make([][]string, nd)
	x.byPath = make(map[vpath.Path]uint32, nd)
	x.grams.filters = make([]bloom, 0, nd)
	x.seqs = make([][]byte, 0, nd)
	lens := make([]uint64, 0, 2*nd) // each document's filter and sequence lengths
	for i := range nd {
		p := vpath.Path(d.str())
		doc := docInfo{path: p, title: titleOf(p), entityType: d.str(), aliases: d.strs(), tags: d.strs(), alive: true}
		doc.size, doc.mtime, doc.sum = d.varint(), d.varint(), d.uvarint()
		doc.length = math.Float32frombits(uint32(d.uvarint()))
		nb, ns := d.uvarint(), d.uvarint()
		if d.err != nil {
			return nil, errFormat
		}
		lens = append(lens, nb, ns)
		x.docs = append(x.docs, doc)
		x.byPath[p] = uint32(i)
		x.total += float64(doc.length)
	}
	// The filters, then the sequences, are used where they lie.
	for k := range 2 {
		if k == 1 {
			x.seqArea = d.b
		}
		for i := range int(nd) {
			n := lens[2*i+k]
			if n > uint64(len(d.b)) {
				return nil, errFormat
			}
			if k == 0 {
				x.grams.filters = append(x.grams.filters, bloom(d.b[:n:n]))
			} else {
				x.seqs = append(x.seqs, d.b[:n:n])
			}
			d.b = d.b[n:]
		}
	}
	// The pages holding the sequences, whole: madvise wants a page-aligned start.
	seqStart, seqEnd := len(data)-len(x.seqArea), len(data)-len(d.b)
	x.seqArea = data[seqStart&^(os.Getpagesize()-1) : seqEnd]
	x.live = len(x.docs)
	nt := d.uvarint()
	if nt > uint64(len(d.b)) {
		return nil, errFormat
	}
	x.lists = make([][]posting, nt)
	x.raw = make([][]byte, 0, nt)
	x.names = make([]string, 0, nt)
	x.terms = make(map[string]uint32, nt)
	for range nt {
		term := d.str()
		n := d.uvarint()
		if n > uint64(len(d.b)) || d.err != nil {
			return nil, errFormat
		}
		x.terms[term] = uint32(len(x.names))
		x.raw = append(x.raw, d.b[:n:n]) // decoded when first needed (decodeList)
		x.names = append(x.names, term)
		d.b = d.b[n:]
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errFormat
	}
	return x, nil
}

// decodeList decodes a persisted posting list; nil if it is damaged.
func decodeList(raw []byte, docs int) []posting {
	d := &decoder{b: raw}
	np := d.uvarint()
	if np > uint64(len(raw)) {
		return nil
	}
	list := make([]posting, np)
	doc := uint32(0)
	for k := range list {
		v := d.uvarint()
		doc += uint32(v >> 1)
		tf := float32(1)
		if v&1 == 0 {
			tf = float32(d.uvarint())
		}
		list[k] = posting{doc: doc, tf: tf}
	}
	if d.err != nil || np > 0 && int(doc) >= docs {
		return nil
	}
	return list
}
