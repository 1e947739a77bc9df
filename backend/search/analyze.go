package search

import (
	"hash/crc64"
	"path"
	"strings"
	"sync"

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

var crcTable = crc64.MakeTable(crc64.ECMA)

// sumOf is the content fingerprint stored for every note.
func sumOf(data []byte) uint64 { return crc64.Checksum(data, crcTable) }

// termFreq is one term of a document with its weighted frequency.
type termFreq struct {
	term string
	tf   float32
}

// analyzed is one note ready to enter the index.
type analyzed struct {
	info  docInfo
	terms []termFreq
}

// analyzer turns notes into terms; it keeps scratch space and is not safe for
// concurrent use (analyzers come from analyzerPool).
type analyzer struct {
	counts  map[string]float32
	scratch []byte
	length  float32
	weight  float32
}

var analyzerPool = sync.Pool{New: func() any { return &analyzer{counts: map[string]float32{}} }}

// add counts one term at the current weight.
func (a *analyzer) add(term []byte) {
	a.counts[string(term)] += a.weight // no allocation when the key exists
	a.length += a.weight
}

// text feeds text at weight w.
func (a *analyzer) text(b []byte, w float32) {
	a.weight = w
	a.scratch = termsOf(b, a.add, a.scratch)
}

// analyze parses a note and returns its index entry; data may be reused afterwards.
func (a *analyzer) analyze(p vpath.Path, data []byte) analyzed {
	n := note.Parse(data)
	clear(a.counts)
	a.length = 0
	info := docInfo{path: p, title: titleOf(p), entityType: n.EntityType, aliases: n.Aliases, alive: true}
	a.text([]byte(info.title), wTitle)
	for _, al := range n.Aliases {
		a.text([]byte(al), wAlias)
	}
	seen := map[string]bool{}
	for _, t := range n.Tags {
		if !seen[t.Name] {
			seen[t.Name] = true
			info.tags = append(info.tags, t.Name)
		}
		a.text([]byte(t.Name), wTag)
	}
	for _, h := range n.Headings {
		a.text([]byte(h.Text), wHeading)
	}
	if n.FrontMatterEnd > n.FrontMatterStart {
		a.text(data[n.FrontMatterStart:n.FrontMatterEnd], wProperty)
	}
	// Everything after the front matter is body, so that every word of the file is a
	// term (the pattern search relies on it).
	body := data
	if n.FrontMatterEnd > n.FrontMatterStart {
		body = data[min(n.FrontMatterEnd, len(data)):]
	}
	a.text(body, wBody)
	info.length = a.length
	info.named = nameTerms(info.title, info.aliases)
	terms := make([]termFreq, 0, len(a.counts))
	for t, f := range a.counts {
		terms = append(terms, termFreq{t, f})
	}
	return analyzed{info: info, terms: terms}
}

// titleOf is a note's title: its file name without ".md".
func titleOf(p vpath.Path) string {
	base := path.Base(string(p))
	if i := strings.LastIndexByte(base, '.'); i > 0 && strings.EqualFold(base[i:], ".md") {
		return base[:i]
	}
	return base
}
