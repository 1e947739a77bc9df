package canvas

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vpath"
)

// RootID names the library root folder.
const RootID = "/"

// FanOut is the most entries an open folder or page lists; a folder with more is
// split into pages of consecutive notes ("Saka/[3]"), pages of more into sub-pages,
// so that no expansion floods the view and any note is a few expansions away.
const FanOut = 30

// OutlineFolders and OutlineTokens bound the folders the view always shows: folders
// are listed down to the deepest level at which their number stays within
// OutlineFolders and their lines within OutlineTokens, so that a vault of long or
// foreign names (a line of Chinese, Thai or Greek costs several times the tokens of
// an English one) keeps its default view as short as any other's.
const (
	OutlineFolders = 64
	OutlineTokens  = 1500
)

// inContext lists the notes every model call carries already, outside the canvas: the
// manual (meta.md) and the memory notebook (memory.md). The canvas leaves them out.
var inContext = map[vpath.Path]bool{"meta.md": true, "memory.md": true}

// InContext reports whether the note at p is one the canvas leaves out because every
// model call carries it already.
func InContext(p vpath.Path) bool { return inContext[p] }

// Kind is what a node is.
type Kind string

// The kinds of node.
const (
	KindFolder  Kind = "folder"
	KindPage    Kind = "page"
	KindNote    Kind = "note"
	KindHeading Kind = "heading"
)

// FolderID returns the node id of folder f ("" is the root).
func FolderID(f vpath.Path) string {
	if f == "" {
		return RootID
	}
	return string(f) + "/"
}

// NoteID returns the node id of the note at p.
func NoteID(p vpath.Path) string { return p.Name() }

// page is one page of a folder's notes: notes[lo:hi] of the folder's sorted notes.
type page struct {
	id     string
	lo, hi int
	sub    []*page // sub-pages when the page holds more than FanOut notes
}

// snapshot is the node tree of a library at one moment, built from its graph.
type snapshot struct {
	g       source
	notes   map[vpath.Path][]vpath.Path // folder → its notes, sorted by name
	subs    map[vpath.Path][]vpath.Path // folder → its subfolders, sorted
	total   map[vpath.Path]int          // folder → notes in it and below
	outline int                         // folders down to this depth are always listed
	pages   map[vpath.Path][]*page      // folder → its top pages (nil: notes listed directly)
	byID    map[string]*page
	inLinks map[vpath.Path]int // memoised backlink counts
}

// depthOf is the depth of folder f: 0 for the root, 1 for a top folder.
func depthOf(f vpath.Path) int {
	if f == "" {
		return 0
	}
	return strings.Count(string(f), "/") + 1
}

// newSnapshot builds the node tree of g.
func newSnapshot(g source) *snapshot {
	s := &snapshot{g: g, notes: map[vpath.Path][]vpath.Path{}, subs: map[vpath.Path][]vpath.Path{},
		total: map[vpath.Path]int{"": 0}, pages: map[vpath.Path][]*page{}, byID: map[string]*page{}, inLinks: map[vpath.Path]int{}}
	for _, p := range g.Notes() {
		if inContext[p] {
			continue
		}
		d := p.Dir()
		s.notes[d] = append(s.notes[d], p)
		for {
			if _, seen := s.total[d]; !seen && d != "" {
				s.subs[d.Dir()] = append(s.subs[d.Dir()], d)
			}
			s.total[d]++
			if d == "" {
				break
			}
			d = d.Dir()
		}
	}
	perDepth := map[int][]vpath.Path{}
	for f := range s.total {
		if f != "" {
			perDepth[depthOf(f)] = append(perDepth[depthOf(f)], f)
		}
	}
	for n, tokens := 0, 0; ; s.outline++ {
		fs, ok := perDepth[s.outline+1]
		if !ok || n+len(fs) > OutlineFolders {
			break
		}
		t := 0
		for _, f := range fs {
			t += Tokens(s.outlineLine(f))
		}
		if tokens+t > OutlineTokens {
			break
		}
		n, tokens = n+len(fs), tokens+t
	}
	for _, subs := range s.subs {
		sort.Slice(subs, func(i, j int) bool { return subs[i] < subs[j] })
	}
	for f, ns := range s.notes {
		sort.Slice(ns, func(i, j int) bool { return lessName(ns[i], ns[j]) })
		slots := FanOut - len(s.subs[f])
		if len(ns) <= slots {
			continue
		}
		s.pages[f] = s.paginate(FolderID(f), 0, len(ns), max(slots, FanOut/3))
	}
	return s
}

// outlineLine is the line of folder f closed, as the outline shows it (see
// renderer.containerLine).
func (s *snapshot) outlineLine(f vpath.Path) string {
	line := strings.Repeat("  ", depthOf(f)) + "+ " + FolderID(f) + " " + counts(len(s.subs[f]), len(s.notes[f]))
	if below := s.total[f]; below != len(s.notes[f]) {
		line += fmt.Sprintf(" (%d below)", below)
	}
	return line + "\n"
}

func lessName(a, b vpath.Path) bool {
	la, lb := strings.ToLower(a.Name()), strings.ToLower(b.Name())
	if la != lb {
		return la < lb
	}
	return a < b
}

// paginate splits notes [lo, hi) into as few pages of at most FanOut notes as it can,
// at most slots pages, each split again when it holds more than FanOut notes. prefix is the folder id or the parent page id.
func (s *snapshot) paginate(prefix string, lo, hi, slots int) []*page {
	n := hi - lo
	count := min((n+FanOut-1)/FanOut, slots) // as few pages as hold n, at most slots
	size := (n + count - 1) / count
	var out []*page
	for i, k := lo, 1; i < hi; i, k = i+size, k+1 {
		var id string
		if strings.HasSuffix(prefix, "]") {
			id = strings.TrimSuffix(prefix, "]") + "." + strconv.Itoa(k) + "]"
		} else {
			id = prefix + "[" + strconv.Itoa(k) + "]"
		}
		pg := &page{id: id, lo: i, hi: min(i+size, hi)}
		if pg.hi-pg.lo > FanOut {
			pg.sub = s.paginate(id, pg.lo, pg.hi, FanOut)
		}
		s.byID[id] = pg
		out = append(out, pg)
	}
	return out
}

// node is a resolved node id.
type node struct {
	kind    Kind
	id      string
	folder  vpath.Path // the folder of a folder or page node
	path    vpath.Path // the note of a note or heading node
	heading string
	page    *page
}

// resolve turns a node id into the node it names, or reports false.
func (s *snapshot) resolve(id string) (node, bool) {
	switch {
	case id == RootID:
		return node{kind: KindFolder, id: id}, true
	case strings.HasSuffix(id, "]"):
		pg, ok := s.byID[id]
		if !ok {
			return node{}, false
		}
		f := strings.TrimSuffix(id[:strings.LastIndex(id, "[")], "/")
		return node{kind: KindPage, id: id, folder: vpath.Path(f), page: pg}, true
	case strings.HasSuffix(id, "/"):
		f := vpath.Path(strings.TrimSuffix(id, "/"))
		if _, ok := s.total[f]; !ok {
			return node{}, false
		}
		return node{kind: KindFolder, id: id, folder: f}, true
	}
	name, heading, hasHeading := strings.Cut(id, "#")
	p := vpath.Path(name + ".md")
	if !s.g.Has(p) || inContext[p] {
		return node{}, false
	}
	if hasHeading {
		return node{kind: KindHeading, id: id, path: p, heading: heading}, true
	}
	return node{kind: KindNote, id: id, path: p}, true
}

// parentOf returns the container a node is listed in: the page holding a note or a
// sub-page, else the folder; a heading's parent is its note. The root has none.
func (s *snapshot) parentOf(n node) (node, bool) {
	switch n.kind {
	case KindHeading:
		return node{kind: KindNote, id: NoteID(n.path), path: n.path}, true
	case KindFolder:
		if n.id == RootID {
			return node{}, false
		}
		d := n.folder.Dir()
		return node{kind: KindFolder, id: FolderID(d), folder: d}, true
	case KindPage:
		if i := strings.LastIndex(n.id, "."); i > strings.LastIndex(n.id, "[") {
			pid := n.id[:i] + "]"
			return node{kind: KindPage, id: pid, folder: n.folder, page: s.byID[pid]}, true
		}
		return node{kind: KindFolder, id: FolderID(n.folder), folder: n.folder}, true
	}
	f := n.path.Dir()
	pages := s.pages[f]
	if pages == nil {
		return node{kind: KindFolder, id: FolderID(f), folder: f}, true
	}
	i := s.indexOf(n.path)
	for {
		var hit *page
		for _, pg := range pages {
			if i >= pg.lo && i < pg.hi {
				hit = pg
				break
			}
		}
		if hit == nil {
			return node{kind: KindFolder, id: FolderID(f), folder: f}, true
		}
		if hit.sub == nil {
			return node{kind: KindPage, id: hit.id, folder: f, page: hit}, true
		}
		pages = hit.sub
	}
}

// indexOf returns the index of note p among its folder's sorted notes.
func (s *snapshot) indexOf(p vpath.Path) int {
	ns := s.notes[p.Dir()]
	i := sort.Search(len(ns), func(i int) bool { return !lessName(ns[i], p) })
	return i
}

// children lists what an open container shows: subfolders then notes or pages for a
// folder, notes or sub-pages for a page.
func (s *snapshot) children(n node) []node {
	var out []node
	switch n.kind {
	case KindFolder:
		for _, sub := range s.subs[n.folder] {
			out = append(out, node{kind: KindFolder, id: FolderID(sub), folder: sub})
		}
		if pages := s.pages[n.folder]; pages != nil {
			for _, pg := range pages {
				out = append(out, node{kind: KindPage, id: pg.id, folder: n.folder, page: pg})
			}
			return out
		}
		for _, p := range s.notes[n.folder] {
			out = append(out, node{kind: KindNote, id: NoteID(p), path: p})
		}
	case KindPage:
		if n.page.sub != nil {
			for _, pg := range n.page.sub {
				out = append(out, node{kind: KindPage, id: pg.id, folder: n.folder, page: pg})
			}
			return out
		}
		for _, p := range s.notes[n.folder][n.page.lo:n.page.hi] {
			out = append(out, node{kind: KindNote, id: NoteID(p), path: p})
		}
	}
	return out
}

// inOutline reports whether folder f is always listed.
func (s *snapshot) inOutline(f vpath.Path) bool { return depthOf(f) <= s.outline }

// backlinks returns how many resolved links and relations point at note p, other
// than its own (memoised per snapshot).
func (s *snapshot) backlinks(p vpath.Path) int {
	if n, ok := s.inLinks[p]; ok {
		return n
	}
	n := 0
	for _, e := range s.g.Backlinks(p) {
		if e.From != p {
			n++
		}
	}
	s.inLinks[p] = n
	return n
}

// linked is a note and its number of backlinks.
type linked struct {
	path vpath.Path
	in   int
}

// mostLinked returns the n notes of g with the most backlinks, most first. It reads
// every edge of the graph: callers cache it (see Canvas.mostLinked).
func mostLinked(g *graph.Graph, n int) []linked {
	count := map[vpath.Path]int{}
	for _, e := range g.Edges() {
		if e.To != e.From && e.To.IsNote() && !inContext[e.To] {
			count[e.To]++
		}
	}
	out := make([]linked, 0, len(count))
	for p, c := range count {
		out = append(out, linked{p, c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].in != out[j].in {
			return out[i].in > out[j].in
		}
		return out[i].path < out[j].path
	})
	return out[:min(n, len(out))]
}
