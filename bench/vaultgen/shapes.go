package vaultgen

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
)

// Shape names the kind of vault Generate writes. Each shape stresses the indexer in
// its own way; all of them are ordinary Obsidian vaults.
type Shape string

// The shapes.
const (
	// ShapeOwn is the project's own shape: block-style front matter with "entity
	// type", "date created" and "relations" of "relation type" / "relation to", and
	// prose of pseudo-words.
	ShapeOwn Shape = "own"
	// ShapeFlow is front matter as many Obsidian users write it: flow lists
	// ("tags: [a, b/c]"), "type", "created" and "modified" keys, relations of "type"
	// and "to", links in a "related" list, folded descriptions and nested maps, over
	// longer English prose with dated lines.
	ShapeFlow Shape = "flow"
	// ShapeCRLF is the own shape with Windows line breaks and a byte order mark.
	ShapeCRLF Shape = "crlf"
	// ShapeLong is the own shape with long bodies (6,000-12,000 words) and only one
	// or two links each.
	ShapeLong Shape = "long"
	// ShapeChinese is Chinese notes: Chinese titles, folders, tags and prose.
	ShapeChinese Shape = "chinese"
	// ShapeHub is the own shape with one hub note linking to 2,000 others.
	ShapeHub Shape = "hub"
	// ShapeNames is the flow shape with a vocabulary that grows with the vault: one
	// word in four is a name or an invented word (people, places, projects), and so
	// are the titles and folders.
	ShapeNames Shape = "names"
	// ShapeMixed is the flow shape's front matter over notes each in one of nine
	// languages and scripts (Latin with diacritics, Cyrillic, Greek, Arabic,
	// Devanagari, Thai, Japanese, Korean, Chinese), with titles in them too.
	ShapeMixed Shape = "mixed"
	// ShapeCode is the names shape with long notes (3,000-9,000 words) holding
	// code blocks: identifiers, numbers, hexadecimal constants, import paths.
	ShapeCode Shape = "code"
)

// Shapes lists every shape, the default first.
var Shapes = []Shape{ShapeOwn, ShapeFlow, ShapeCRLF, ShapeLong, ShapeChinese, ShapeHub, ShapeNames, ShapeMixed, ShapeCode}

// Untuned lists the shapes the index was not tuned on (issue 30): their
// vocabulary grows with the vault.
var Untuned = []Shape{ShapeNames, ShapeMixed, ShapeCode}

// HubLinks is how many notes the hub note of ShapeHub links to.
const HubLinks = 2000

// valid reports whether s is a known shape.
func (s Shape) valid() bool {
	for _, k := range Shapes {
		if s == k {
			return true
		}
	}
	return false
}

// base is the shape whose front matter and prose s uses.
func (s Shape) base() Shape {
	switch s {
	case ShapeCRLF, ShapeLong, ShapeHub:
		return ShapeOwn
	case ShapeNames, ShapeMixed, ShapeCode:
		return ShapeFlow
	}
	return s
}

// defaultWords are the shape's default body lengths in words.
func (s Shape) defaultWords() (lo, hi int) {
	switch s {
	case ShapeLong:
		return 6000, 12000
	case ShapeCode:
		return 3000, 9000
	case ShapeFlow, ShapeNames, ShapeMixed:
		return 400, 4000
	}
	return 300, 3000
}

// lang is how a shape writes prose.
type lang struct {
	pick      func(r *rng) string
	sep, stop string
	overview  string // the first section's heading, a subpath of some links
	refs      string // the last section's heading
	dangling  string // the prefix of link targets that name no note
	upper     bool   // sentences start with a capital
}

var (
	ownLang = lang{
		pick: func(r *rng) string { return vocab[r.intn(len(vocab))] }, sep: " ", stop: ".",
		overview: "Overview", refs: "References", dangling: "Unwritten ", upper: true,
	}
	englishLang = lang{
		pick: func(r *rng) string { return english[englishZipf.draw(r)] }, sep: " ", stop: ".",
		overview: "Overview", refs: "References", dangling: "Unwritten ", upper: true,
	}
	chineseLang = lang{
		pick: func(r *rng) string { return cjkWords[cjkZipf.draw(r)] }, sep: "", stop: "。",
		overview: "概述", refs: "参考", dangling: "未写",
	}
)

func (s Shape) lang() lang {
	switch s {
	case ShapeNames, ShapeCode:
		return namesLang
	case ShapeMixed:
		return englishLang // each note picks its own (mixedLang)
	}
	switch s.base() {
	case ShapeFlow:
		return englishLang
	case ShapeChinese:
		return chineseLang
	}
	return ownLang
}

// flowFrontMatter writes the flow shape's front matter.
func (w *writer) flowFrontMatter(i int) {
	r := w.r
	w.str("---\ntype: ", entityTypes[r.intn(len(entityTypes))], "\n")
	if r.chance(50) {
		w.str("aliases: [", capitalize(w.pick()), " ", strconv.Itoa(i))
		if r.chance(30) {
			w.str(", \"", capitalize(w.pick()), ": ", w.pick(), "\"")
		}
		w.str("]\n")
	}
	w.flowTags()
	created := baseDate.Add(time.Duration(r.intn(700)) * 24 * time.Hour)
	w.str("created: ", created.Format("2006-01-02"), "\n")
	w.str("modified: ", created.Add(time.Duration(r.intn(200*24*60))*time.Minute).Format("2006-01-02T15:04:05"), "\n")
	if r.chance(40) {
		w.str("related: [")
		for k := range r.between(1, 3) {
			if k > 0 {
				w.str(", ")
			}
			w.str("\"[[", w.fmLink(i), "]]\"")
		}
		w.str("]\n")
	}
	if r.chance(50) {
		w.str("relations:\n")
		for range r.between(1, 3) {
			w.str("  - type: ", flowRelations[r.intn(len(flowRelations))], "\n")
			w.str("    to: \"[[", w.fmLink(i), "]]\"\n")
		}
	}
	if r.chance(30) {
		w.str("description: >-\n  ")
		w.sentence(r.between(6, 12), false)
		w.str("\n  ")
		w.sentence(r.between(6, 12), false)
		w.str("\n")
	}
	if r.chance(20) {
		x := w.pick()
		w.str("source:\n  url: https://example.org/", x, "\n  author: ", capitalize(w.pick()), " ", capitalize(w.pick()), "\n")
	}
	if r.chance(30) {
		w.str("rating: ", strconv.Itoa(r.between(1, 5)), "\n")
	}
	if r.chance(20) {
		w.str("publish: true\n")
	}
	if r.chance(10) {
		w.str("cssclasses: []\n")
	}
	w.str("---\n\n")
}

// chineseFrontMatter writes the Chinese shape's front matter.
func (w *writer) chineseFrontMatter(i int) {
	r := w.r
	w.str("---\ntype: ", cjkTypes[r.intn(len(cjkTypes))], "\n")
	if r.chance(40) {
		w.str("aliases: [", w.pick(), w.pick(), strconv.Itoa(i), "]\n")
	}
	w.flowTags()
	created := baseDate.Add(time.Duration(r.intn(700)) * 24 * time.Hour)
	w.str("created: ", created.Format("2006-01-02"), "\n")
	if r.chance(40) {
		w.str("related: [\"[[", w.fmLink(i), "]]\"]\n")
	}
	w.str("summary: ")
	w.sentence(r.between(6, 14), false)
	w.str("\n---\n\n")
}

var cjkTypes = []string{"概念", "人物", "项目", "书籍", "地点", "会议", "工具", "事件"}

// flowTags writes a flow list of one to three tags, some nested.
func (w *writer) flowTags() {
	r := w.r
	w.str("tags: [")
	for k := range r.between(1, 3) {
		if k > 0 {
			w.str(", ")
		}
		root := tagRoots[r.intn(len(tagRoots))]
		if r.chance(50) {
			w.str(root, "/", w.pick())
		} else {
			w.str(root)
		}
	}
	w.str("]\n")
}

// fmLink picks the target of a front matter link (not a relation) and counts it.
func (w *writer) fmLink(i int) string {
	t, dangling := w.target(i, 5)
	w.s.Links++
	w.s.FrontMatterLinks++
	if dangling {
		w.s.Dangling++
	}
	return t
}

// hubLinks writes the hub note's index: links to HubLinks notes.
func (w *writer) hubLinks(i int) {
	n := len(w.p.titles)
	if n < 2 {
		return
	}
	w.str("## Index\n\n")
	for k := range HubLinks {
		j := (i + 1 + k) % n
		if j == i {
			j = (j + 1) % n
		}
		w.str("- [[", w.p.titles[j], "]]\n")
		w.s.BodyLinks++
		w.s.Links++
	}
	w.str("\n")
}

// toCRLF rewrites the note in w.buf with "\r\n" line breaks after a byte order mark.
func (w *writer) toCRLF() {
	out := make([]byte, 0, len(w.buf)+len(w.buf)/20+3)
	out = append(out, 0xEF, 0xBB, 0xBF)
	out = append(out, bytes.ReplaceAll(w.buf, []byte("\n"), []byte("\r\n"))...)
	w.buf = out
}

// checkShape validates o.Shape and fills the shape's default body lengths.
func checkShape(o *Options) error {
	if o.Shape == "" {
		o.Shape = ShapeOwn
	}
	if !o.Shape.valid() {
		return fmt.Errorf("vaultgen: unknown shape %q (want one of %v)", o.Shape, Shapes)
	}
	lo, hi := o.Shape.defaultWords()
	if o.MinWords <= 0 {
		o.MinWords = lo
	}
	if o.MaxWords < o.MinWords {
		o.MaxWords = max(o.MinWords, hi)
	}
	return nil
}
