package graph

import (
	"slices"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// edgeOf returns link i of f as an Edge.
func edgeOf(f *file, i int) Edge {
	l := &f.links[i]
	e := Edge{From: f.path, Target: f.target(i), Type: f.typ(i), Resolved: l.dst != nil, Link: f.src(i)}
	if l.dst != nil {
		e.To = l.dst.path
	}
	return e
}

// Outlinks returns the edges of the note at p, resolved or not, in the order they
// are written: body and front matter links first, then relations. Self links
// ([[#Heading]]) are not edges, nor is the "[[...]]" value of a relation (the
// relation is the edge).
func (g *Graph) Outlinks(p vpath.Path) []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	f := g.files[p]
	if f == nil {
		return nil
	}
	var out []Edge
	for i := range f.links {
		if l := &f.links[i]; l.edge {
			out = append(out, edgeOf(f, i))
		}
	}
	return out
}

// Backlinks returns the resolved edges pointing at p, sorted by source path and
// then in source order.
func (g *Graph) Backlinks(p vpath.Path) []Edge {
	g.rlockReversed()
	defer g.mu.RUnlock()
	var out []Edge
	f := g.files[p]
	if f == nil {
		return nil
	}
	for _, r := range f.back {
		src := g.files[r.path]
		for i := range src.links {
			if l := &src.links[i]; l.edge && l.dst == f {
				out = append(out, edgeOf(src, i))
			}
		}
	}
	return out
}

// Edges returns every resolved edge, sorted by source path and then in source
// order.
func (g *Graph) Edges() []Edge { return g.collect(true) }

// Unresolved returns every edge whose target names no file, sorted by source path
// and then in source order.
func (g *Graph) Unresolved() []Edge { return g.collect(false) }

// EachEdge calls fn for every edge, in the order of Edges (resolved) or Unresolved
// (not), without making an Edge of each: the window's payload of a 100k-note vault
// visits a million edges, and building them took seconds of allocation. to is ""
// for an unresolved edge. fn runs under the graph's read lock and must not call g.
func (g *Graph) EachEdge(resolved bool, fn func(from, to vpath.Path, target, typ string)) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for _, p := range g.paths {
		f := g.files[p]
		for i := range f.links {
			l := &f.links[i]
			if !l.edge || (l.dst != nil) != resolved {
				continue
			}
			var to vpath.Path
			if l.dst != nil {
				to = l.dst.path
			}
			fn(p, to, f.target(i), f.typ(i))
		}
	}
}

func (g *Graph) collect(resolved bool) []Edge {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []Edge
	for _, p := range g.paths {
		f := g.files[p]
		for i := range f.links {
			if l := &f.links[i]; l.edge && (l.dst != nil) == resolved {
				out = append(out, edgeOf(f, i))
			}
		}
	}
	return out
}

// Stats counts notes, files, links and relations: as Load counted them while it
// resolved when nothing changed since, else on every core.
func (g *Graph) Stats() Stats {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.statsGen != 0 && g.statsGen == g.gen.Load() {
		return g.stats
	}
	var mu sync.Mutex
	s := Stats{Files: len(g.files)}
	parallel(len(g.paths), func(from, to int) {
		var part Stats
		for _, p := range g.paths[from:to] {
			g.files[p].count(&part)
		}
		mu.Lock()
		s.add(part)
		mu.Unlock()
	})
	return s
}

// add adds the counts of t, but for Files, to s.
func (s *Stats) add(t Stats) {
	s.Notes += t.Notes
	s.Links += t.Links
	s.Resolved += t.Resolved
	s.Unresolved += t.Unresolved
	s.Relations += t.Relations
}

// count adds f's note and its links and relations to s.
func (f *file) count(s *Stats) {
	if f.note == nil {
		return
	}
	s.Notes++
	for i := range f.links {
		l := &f.links[i]
		switch {
		case l.rel:
			s.Relations++
		case l.dst != nil:
			s.Links++
			s.Resolved++
		default:
			s.Links++
			s.Unresolved++
		}
	}
}

// Tags returns, for every tag, the number of notes carrying it, as Obsidian's tag
// pane counts: a nested tag also counts for each of its parents ("a/b" counts for
// "a" and "a/b"), and each note counts once per tag. Tags compare case-insensitively;
// a tag is spelled as in the first note (in path order) that uses it.
func (g *Graph) Tags() map[string]int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	spelling := map[string]string{}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, p := range g.paths {
		n := g.files[p].note
		if n == nil || len(n.Tags) == 0 {
			continue
		}
		clear(seen)
		for _, t := range n.Tags {
			tagParts(t.Name, func(part, key string) {
				if seen[key] {
					return
				}
				seen[key] = true
				if _, ok := spelling[key]; !ok {
					spelling[key] = part
				}
				count[key]++
			})
		}
	}
	out := make(map[string]int, len(count))
	for k, c := range count {
		out[spelling[k]] = c
	}
	return out
}

// TagCount returns len(Tags()): how many tags the notes carry, the parents of nested
// tags included, without counting the notes of each or choosing spellings
// (`memotree index --stats` prints only the number). Load counts them while it
// resolves; after a change they are counted again, on every core.
func (g *Graph) TagCount() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.statsGen != 0 && g.statsGen == g.gen.Load() {
		return g.tagCount
	}
	var (
		mu   sync.Mutex
		sets []tagKeys
	)
	parallel(len(g.paths), func(from, to int) {
		t := newTagKeys()
		for _, p := range g.paths[from:to] {
			t.add(g.files[p].note)
		}
		mu.Lock()
		sets = append(sets, t)
		mu.Unlock()
	})
	return countTags(sets)
}

// tagKeys gathers the folded keys of the tags of notes (see tagParts). A name seen
// before counts for the same keys: most notes repeat names, and a lookup is cheaper
// than trimming and folding the name again.
type tagKeys struct{ keys, names map[string]struct{} }

func newTagKeys() tagKeys {
	return tagKeys{keys: map[string]struct{}{}, names: map[string]struct{}{}}
}

// add gathers the tags of n (nil for an attachment).
func (t tagKeys) add(n *note.Note) {
	if n == nil {
		return
	}
	for _, tag := range n.Tags {
		if _, seen := t.names[tag.Name]; !seen {
			t.names[tag.Name] = struct{}{}
			tagParts(tag.Name, func(_, key string) { t.keys[key] = struct{}{} })
		}
	}
}

// countTags returns how many keys the sets hold together. It merges them into the
// first.
func countTags(sets []tagKeys) int {
	if len(sets) == 0 {
		return 0
	}
	all := sets[0].keys
	for _, t := range sets[1:] {
		for k := range t.keys {
			all[k] = struct{}{}
		}
	}
	return len(all)
}

// tagParts calls fn with each tag that the tag name counts for, the name itself and
// its parents ("a", then "a/b" for "#a/b"), and the folded key each is counted under.
func tagParts(name string, fn func(part, key string)) {
	name = strings.Trim(strings.TrimPrefix(strings.TrimSpace(name), "#"), "/")
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		if part := name[:i]; part != "" {
			fn(part, fold(part))
		}
	}
}

// Neighbors returns the files reachable from p within depth steps along resolved
// edges taken in either direction, p excluded, nearest first and then by path.
// types, when not empty, keeps only edges of those types. A depth below 1 gives
// nothing.
func (g *Graph) Neighbors(p vpath.Path, depth int, types []string) []vpath.Path {
	g.rlockReversed()
	defer g.mu.RUnlock()
	keep := func(string) bool { return true }
	if len(types) > 0 {
		keep = func(t string) bool { return slices.Contains(types, t) }
	}
	seen := map[vpath.Path]bool{p: true}
	var out []vpath.Path
	frontier := []vpath.Path{p}
	for d := 0; d < depth && len(frontier) > 0; d++ {
		var next []vpath.Path
		for _, u := range frontier {
			g.adjacent(u, keep, func(v vpath.Path) {
				if !seen[v] {
					seen[v] = true
					next = append(next, v)
				}
			})
		}
		slices.Sort(next)
		out = append(out, next...)
		frontier = next
	}
	return out
}

// adjacent calls visit for each file joined to u by a kept edge in either direction.
func (g *Graph) adjacent(u vpath.Path, keep func(string) bool, visit func(vpath.Path)) {
	f := g.files[u]
	if f == nil {
		return
	}
	for i := range f.links {
		if l := &f.links[i]; l.edge && l.dst != nil && keep(f.typ(i)) {
			visit(l.dst.path)
		}
	}
	for _, r := range f.back {
		src := g.files[r.path]
		for i := range src.links {
			if l := &src.links[i]; l.edge && l.dst == f && keep(src.typ(i)) {
				visit(src.path)
				break
			}
		}
	}
}

// EdgesOf returns the edges the note n would have at p in the graph as it is now: its
// links and relations resolved against today's files, as Outlinks gives them. It
// reads an older version of a note (from git) in the graph's terms; the graph is not
// changed.
func (g *Graph) EdgesOf(p vpath.Path, n *note.Note) []Edge {
	if n == nil {
		return nil
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	f := newFile(p)
	f.note = n
	r := resolver{g: g, buf: make([]byte, 0, 128)}
	var out []Edge
	f.links = r.buildLinks(f)
	for i := range f.links {
		if f.links[i].edge {
			out = append(out, edgeOf(f, i))
		}
	}
	return out
}
