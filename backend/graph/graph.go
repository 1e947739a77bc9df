// Package graph is MemoTree's in-memory link graph: which file every link and typed
// relation of the vault points to, by Obsidian's resolution rules, with backlinks,
// neighbours, tags, statistics and a name lookup for tools. It does no I/O: the
// caller feeds it parsed notes (note.Note) and the paths of other files.
//
// Link resolution mirrors Obsidian's MetadataCache.getFirstLinkpathDest; the rules,
// and where they were established, are documented in resolve.go. Body wikilinks are
// edges of type "links to", embeds of type "embeds", local Markdown links "links
// to", and front matter relations carry their own type. A self link ([[#Heading]])
// and the "[[...]]" value that carries a relation are counted in Stats but are not
// edges of their own.
//
// Changes are incremental: adding or removing a file re-resolves only the links
// whose target names that file's basename (an index keyed by case-folded stem), so
// a change costs microseconds even at tens of thousands of notes. Load builds the
// whole graph at once, in parallel; LoadSorted does so from a list in path order
// (as a full index has it from its walk) without a map or a sort, and keeps every
// core busy through each of its phases.
//
// Concurrency: a Graph is safe for any number of concurrent readers and writers;
// methods that change it (SetNote, SetFile, Remove, Load, LoadSorted) take an exclusive lock and
// readers a shared one, so writers are serialised and readers never see a change
// half done. On a graph whose Load deferred its reverse indexes (DeferReverse), the
// first Backlinks or Neighbors takes the exclusive lock once to build them. Every slice and map a method returns is a fresh copy the caller may
// keep and modify. The *note.Note values handed to SetNote or Load, and the ones
// Note and Edge.Link return, are shared, not copied: the graph takes ownership of a
// note passed to it and treats it as immutable, and so must every caller.
package graph

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// Edge types used for links written in note bodies and front matter.
const (
	TypeLink  = "links to" // [[wikilinks]] and local [Markdown](links.md)
	TypeEmbed = "embeds"   // ![[embeds]]
	// TypeRelation is the type of a relation whose "relation type" is empty.
	TypeRelation = "related to"
)

// Edge is one link or relation from a note.
type Edge struct {
	From vpath.Path `json:"from"`
	// To is the file the link resolves to; empty when Resolved is false.
	To vpath.Path `json:"to,omitempty"`
	// Target is the target as written (Link.Target or Relation.To).
	Target string `json:"target"`
	// Type is "links to", "embeds" or the relation's type.
	Type     string `json:"type"`
	Resolved bool   `json:"resolved"`
	// Link is the link in the source note; nil for relations. It is shared with
	// the note and must not be modified.
	Link *note.Link `json:"-"`
}

// Stats counts what the graph holds.
type Stats struct {
	Notes int `json:"notes"` // files with a parsed note
	Files int `json:"files"` // every file, notes included
	// Links counts every wikilink, embed and local Markdown link in bodies and
	// front matter (note.Links), self links ([[#Heading]]) included.
	Links int `json:"links"`
	// Resolved + Unresolved == Links. A self link counts as resolved.
	Resolved   int `json:"resolved"`
	Unresolved int `json:"unresolved"`
	// Relations counts typed front matter relations, resolved or not.
	Relations int `json:"relations"`
}

// Graph is the link graph of one vault. The zero value is not usable; call New.
type Graph struct {
	mu    sync.RWMutex
	files map[vpath.Path]*file
	paths []vpath.Path // every file, sorted
	// byStem maps a folded basename without ".md" to its bucket: the files with
	// that stem and the notes whose links name it.
	byStem map[string]*bucket
	// aliases maps a folded alias to the notes declaring it.
	aliases map[string]refs
	// w is the resolver used by writers, under the write lock.
	w resolver
	// peak is the most entries files and byStem held since they were last built
	// (see compact).
	peak int
	// gen counts changes, so that what is derived from the graph can be cached.
	gen atomic.Uint64
	// stats and tagCount are the counts of Stats and TagCount at generation
	// statsGen (0: none), made by Load while it resolves.
	stats    Stats
	tagCount int
	statsGen uint64
	// reversed says the reverse indexes of links are built (see reverse.go); lazy
	// says Load leaves them to be built on first use (DeferReverse).
	reversed, lazy bool
}

// Generation returns a number that changes whenever the graph changes: what is
// computed from the graph may be reused while it stays the same.
func (g *Graph) Generation() uint64 { return g.gen.Load() }

// bucket groups what shares one stem.
type bucket struct {
	stem string
	// files are the files with this stem, sorted by (UTF-16 length, path): the
	// candidates of Obsidian's shortest-path rule.
	files []*file
	// ents describes each of files, so that looking for a path scans contiguous
	// memory instead of following pointers.
	ents []entry
	// byKey maps a folded path to its files (several only when paths differ in
	// case alone), sorted by path; kept only for buckets of more than scanMax
	// files, where scanning would be slow.
	byKey map[string][]*file
	// deps lists the notes holding links with this stem: the links to resolve
	// again when a file with this stem comes or goes.
	deps refs
	n    int // scratch counter for Load
}

// entry is what resolution needs to know about a file of a bucket.
type entry struct {
	hash uint64 // hashKey(key)
	md   bool   // the name ends in ".md" (all names in a bucket are stem or stem+".md")
}

// file is one file of the vault.
type file struct {
	path  vpath.Path
	key   string // fold(path)
	hash  uint64 // hashKey(key)
	stem  string
	len16 int
	note  *note.Note // nil for attachments
	links []link
	back  refs // the notes with resolved edges to this file
	n     int  // scratch counter for Load
}

// link is one link or relation of a note with its current resolution. The links of
// a file f are f.note.Links followed by f.note.Relations, in that order: link i of f
// is f.src(i) or f.rel(i), and what it says (target, type, kind) is read from the
// note rather than held twice (a full index holds a million links).
type link struct {
	b   *bucket // the bucket of the target's stem, set once registered
	dst *file   // the file the link resolves to, nil if none
	// stemmed is false when the target can never name a file (it has no stem); a
	// stem with no bucket yet is computed again when the link is registered
	// (linkBucket) rather than kept in every link.
	stemmed bool
	edge    bool // an edge of the graph (not a self link, not a relation's own link)
	rel     bool // a relation, not a link
}

// src returns the note's link behind link i of f; nil for a relation.
func (f *file) src(i int) *note.Link {
	if i < len(f.note.Links) {
		return &f.note.Links[i]
	}
	return nil
}

// rel returns the relation behind link i of f, which must be a relation.
func (f *file) rel(i int) *note.Relation { return &f.note.Relations[i-len(f.note.Links)] }

// target returns the target of link i of f as written.
func (f *file) target(i int) string {
	if l := f.src(i); l != nil {
		return l.Target()
	}
	return f.rel(i).To
}

// typ returns the edge type of link i of f: TypeLink, TypeEmbed, or a relation's
// type (TypeRelation when it has none).
func (f *file) typ(i int) string {
	l := f.src(i)
	switch {
	case l == nil:
		if t := strings.TrimSpace(f.rel(i).Type); t != "" {
			return t
		}
		return TypeRelation
	case l.Kind.IsEmbed():
		return TypeEmbed
	}
	return TypeLink
}

// markdown reports whether link i of f is a Markdown link.
func (f *file) markdown(i int) bool {
	l := f.src(i)
	return l != nil && l.Kind.IsMarkdown()
}

// name returns what link i of f resolves: its target, or for a relation the target
// without "[[...]]", display text or subpath.
func (f *file) name(i int) string {
	if l := f.src(i); l != nil {
		return l.Target()
	}
	return relationName(f.rel(i).To)
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{
		files:    map[vpath.Path]*file{},
		byStem:   map[string]*bucket{},
		aliases:  map[string]refs{},
		reversed: true,
	}
}

// Note returns the parsed note at p. It reports false for a path that is not in
// the graph or is an attachment. The note is shared: do not modify it.
func (g *Graph) Note(p vpath.Path) (*note.Note, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	f := g.files[p]
	if f == nil || f.note == nil {
		return nil, false
	}
	return f.note, true
}

// Has reports whether p is a file of the graph (a note or an attachment).
func (g *Graph) Has(p vpath.Path) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.files[p] != nil
}

// Notes returns the paths of all notes, sorted.
func (g *Graph) Notes() []vpath.Path {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]vpath.Path, 0, len(g.paths))
	for _, p := range g.paths {
		if g.files[p].note != nil {
			out = append(out, p)
		}
	}
	return out
}

// Files returns the paths of every file, notes included, sorted.
func (g *Graph) Files() []vpath.Path {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return slices.Clone(g.paths)
}
