package graph

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// SetNote adds the note at p or replaces it, and re-resolves the links of other
// notes that a new file can capture. The graph takes ownership of n (nil means a
// note with no content); nobody may modify it afterwards. Paths in folders that
// are not part of the vault (vpath.Path.Ignored) and the empty path are ignored.
func (g *Graph) SetNote(p vpath.Path, n *note.Note) {
	if p == "" || p.Ignored() {
		return
	}
	if n == nil {
		n = &note.Note{}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buildReverse()
	g.set(p, n)
	g.gen.Add(1)
	g.compact()
}

// SetFile adds or replaces p as a file whose content the graph does not know: an
// attachment, which links can point to but which links to nothing. A ".md" path
// becomes a note without links (as if SetNote(p, nil)).
func (g *Graph) SetFile(p vpath.Path) {
	if p == "" || p.Ignored() {
		return
	}
	var n *note.Note
	if p.IsNote() {
		n = &note.Note{}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buildReverse()
	g.set(p, n)
	g.gen.Add(1)
	g.compact()
}

// Remove deletes the file at p, if present. Links that pointed to it resolve again
// (to another file with the same name, or nowhere). A rename is Remove then SetNote.
func (g *Graph) Remove(p vpath.Path) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.buildReverse()
	f := g.files[p]
	if f == nil {
		return
	}
	g.gen.Add(1)
	g.unregister(f)
	b := g.deleteFile(f)
	g.reresolve(b, f)
	g.dropIfEmpty(b)
	g.compact()
}

// compactMin is the size below which compact leaves the maps alone.
const compactMin = 4096

// compact rebuilds the maps of files and stems when they hold less than a quarter of
// what they held at their peak: a Go map never gives back the room of deleted keys,
// so a note with 500,000 link targets, once removed, kept tens of megabytes of empty
// buckets. Rebuilding costs one pass over what is left, and happens only after the
// maps lost three quarters of it, so it is paid for by those removals. The caller
// holds the write lock.
func (g *Graph) compact() {
	n := len(g.files) + len(g.byStem)
	g.peak = max(g.peak, n)
	if g.peak < compactMin || n >= g.peak/4 {
		return
	}
	files := make(map[vpath.Path]*file, len(g.files))
	for k, v := range g.files {
		files[k] = v
	}
	stems := make(map[string]*bucket, len(g.byStem))
	for k, v := range g.byStem {
		stems[k] = v
	}
	g.files, g.byStem, g.peak = files, stems, n
}

// set stores n (nil for an attachment) at p. The caller holds the write lock.
func (g *Graph) set(p vpath.Path, n *note.Note) {
	f := g.files[p]
	if f == nil {
		f = newFile(p)
		g.reresolve(g.insertFile(f), nil)
	} else {
		g.unregister(f)
	}
	f.note = n
	f.links = g.writer().buildLinks(f)
	g.register(f)
}

// writer returns the resolver of the goroutine holding the write lock.
func (g *Graph) writer() *resolver {
	g.w.g = g
	return &g.w
}

// entry returns f's entry in its bucket.
func (f *file) entry() entry {
	return entry{hash: f.hash, md: strings.HasSuffix(f.key, ".md")}
}

// fdir returns the folded folder of f, a prefix of its key.
func (f *file) fdir() string {
	return f.key[:max(0, strings.LastIndexByte(f.key, '/'))]
}

func newFile(p vpath.Path) *file {
	key := fold(string(p))
	// The stem is a substring of the key: folding keeps every '/' in place.
	stem := strings.TrimSuffix(key[strings.LastIndexByte(key, '/')+1:], ".md")
	return &file{path: p, key: key, hash: hashKey(key), stem: stem, len16: len16(string(p))}
}

func byPathOrder(a, b *file) int { return strings.Compare(string(a.path), string(b.path)) }

// byLenOrder orders the candidates of the shortest-path rule.
func byLenOrder(a, b *file) int {
	return cmp.Or(cmp.Compare(a.len16, b.len16), byPathOrder(a, b))
}

// insertFile adds f to the path indexes and returns its bucket.
func (g *Graph) insertFile(f *file) *bucket {
	g.files[f.path] = f
	i, _ := slices.BinarySearch(g.paths, f.path)
	g.paths = slices.Insert(g.paths, i, f.path)
	b := g.bucket(f.stem)
	i, _ = slices.BinarySearchFunc(b.files, f, byLenOrder)
	b.files = slices.Insert(b.files, i, f)
	b.ents = slices.Insert(b.ents, i, f.entry())
	switch {
	case b.byKey != nil:
		b.byKey[f.key] = insertSorted(b.byKey[f.key], f, byPathOrder)
	case len(b.files) > scanMax:
		b.indexKeys()
	}
	return b
}

// indexKeys builds b.byKey.
func (b *bucket) indexKeys() {
	b.byKey = make(map[string][]*file, len(b.files))
	for _, f := range b.files {
		b.byKey[f.key] = insertSorted(b.byKey[f.key], f, byPathOrder)
	}
}

// bucket returns the bucket of stem, creating it if needed.
func (g *Graph) bucket(stem string) *bucket {
	b := g.byStem[stem]
	if b == nil {
		b = &bucket{stem: stem}
		g.byStem[stem] = b
	}
	return b
}

// linkBucket returns the bucket of the stem of link i of f, a link with a stem,
// making it when no file or link has that stem yet.
func (g *Graph) linkBucket(f *file, i int) *bucket {
	var buf [128]byte
	stem := appendStem(buf[:0], f.name(i))
	if b := g.byStem[string(stem)]; b != nil {
		return b
	}
	return g.bucket(string(stem))
}

// dropIfEmpty forgets b when no file and no link uses it any more.
func (g *Graph) dropIfEmpty(b *bucket) {
	if len(b.files) == 0 && len(b.deps) == 0 {
		delete(g.byStem, b.stem)
	}
}

func insertSorted(list []*file, f *file, order func(a, b *file) int) []*file {
	i, _ := slices.BinarySearchFunc(list, f, order)
	return slices.Insert(list, i, f)
}

// deleteFile removes f from the path indexes and returns its bucket.
func (g *Graph) deleteFile(f *file) *bucket {
	delete(g.files, f.path)
	if i, ok := slices.BinarySearch(g.paths, f.path); ok {
		g.paths = slices.Delete(g.paths, i, i+1)
	}
	isF := func(x *file) bool { return x == f }
	b := g.byStem[f.stem]
	if b.byKey != nil {
		if list := slices.DeleteFunc(b.byKey[f.key], isF); len(list) > 0 {
			b.byKey[f.key] = list
		} else {
			delete(b.byKey, f.key)
		}
	}
	if i := slices.IndexFunc(b.files, isF); i >= 0 {
		b.files = slices.Delete(b.files, i, i+1)
		b.ents = slices.Delete(b.ents, i, i+1)
	}
	if len(b.files) <= scanMax {
		b.byKey = nil // as Load leaves a small bucket
	}
	return b
}

// buildLinks lists and resolves the links and relations of f's note.
func (r *resolver) buildLinks(f *file) []link {
	n := f.note
	if n == nil || len(n.Links)+len(n.Relations) == 0 {
		return nil
	}
	// The relations' lines and targets: a note has a few, so a list on the stack is
	// cheaper than a map.
	var carriedBuf [8]lineTarget
	carried := carriedBuf[:0]
	for _, rel := range n.Relations {
		carried = append(carried, lineTarget{rel.Line, relationName(rel.To)})
	}
	out := make([]link, 0, len(n.Links)+len(n.Relations))
	for i := range n.Links {
		l := &n.Links[i]
		k := link{edge: true}
		switch {
		case strings.TrimSpace(l.Target()) == "":
			k.edge = false // [[#Heading]]: a link to the note itself, not an edge
		case l.InFrontMatter && carries(carried, int(l.Line), strings.TrimSpace(l.Target())):
			k.edge = false // the "[[...]]" of a relation: the relation is the edge
		}
		out = append(out, r.resolved(f, i, k))
	}
	for i := range n.Relations {
		out = append(out, r.resolved(f, len(n.Links)+i, link{rel: true, edge: true}))
	}
	return out
}

// lineTarget is a relation of a note: its line and its target's name.
type lineTarget struct {
	line   int
	target string
}

// carries reports whether one of the relations is on line and names target (the
// same once folded): the link is then the "[[...]]" that carries the relation.
func carries(carried []lineTarget, line int, target string) bool {
	for _, c := range carried {
		if c.line == line && sameFold(c.target, target) {
			return true
		}
	}
	return false
}

// sameFold reports whether fold(a) == fold(b). Two ASCII names are compared without
// folding them, which allocates when a name has a capital (most relation targets).
func sameFold(a, b string) bool {
	if ascii(a) && ascii(b) {
		return strings.EqualFold(a, b)
	}
	return fold(a) == fold(b)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// resolved fills in the stem, bucket and resolution of k, link i of f.
func (r *resolver) resolved(f *file, i int, k link) link {
	k.b, k.stemmed = r.stem(f.name(i))
	k.dst = r.resolveLink(f, i, &k)
	return k
}

// relationName strips what may surround a relation's target: "[[", "]]", a
// "|display" and a "#subpath".
func relationName(to string) string {
	s := strings.TrimSpace(to)
	s = strings.TrimPrefix(s, "[[")
	s = strings.TrimSuffix(s, "]]")
	if i := strings.IndexAny(s, "|#"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// resolveLink returns the file l, link i of the note f, points to, or nil.
func (r *resolver) resolveLink(f *file, i int, l *link) *file {
	name := f.name(i)
	switch {
	case l.rel && name == "":
		return nil
	case strings.TrimSpace(name) == "":
		return f // [[#Heading]]
	case l.b == nil:
		return nil // no file has this stem
	}
	if r.from != f { // the links of one note come together: its folder once
		r.from, r.dir, r.fdir = f, f.path.Dir(), f.fdir()
	}
	return r.resolve(r.dir, r.fdir, name, l.b, f.markdown(i))
}

// register adds f's links and aliases to the reverse indexes.
func (g *Graph) register(f *file) {
	for i := range f.links {
		l := &f.links[i]
		if l.stemmed {
			if l.b == nil {
				l.b = g.linkBucket(f, i)
			}
			l.b.deps = l.b.deps.add(f.path, 1)
		}
		if l.edge && l.dst != nil {
			l.dst.back = l.dst.back.add(f.path, 1)
		}
	}
	g.aliasRefs(f, addRef)
}

// unregister undoes register.
func (g *Graph) unregister(f *file) {
	for i := range f.links {
		l := &f.links[i]
		if l.b != nil {
			l.b.deps = l.b.deps.remove(f.path, 1)
			g.dropIfEmpty(l.b)
		}
		if l.edge && l.dst != nil {
			l.dst.back = l.dst.back.remove(f.path, 1)
		}
	}
	g.aliasRefs(f, removeRef)
}

// aliasRefs applies op to the alias index for every alias of f.
func (g *Graph) aliasRefs(f *file, op func(map[string]refs, string, vpath.Path, int32)) {
	if f.note == nil {
		return
	}
	for _, a := range f.note.Aliases {
		if a = strings.TrimSpace(a); a != "" {
			op(g.aliases, fold(a), f.path, 1)
		}
	}
}

// reresolve resolves again the links under b after a file with its stem was added
// (removed == nil) or removed, and moves the backlinks that changed. A removal can
// only change the links that pointed to the removed file.
func (g *Graph) reresolve(b *bucket, removed *file) {
	r := g.writer()
	for _, d := range b.deps {
		src := g.files[d.path]
		for i := range src.links {
			l := &src.links[i]
			if l.b != b || (removed != nil && l.dst != removed) {
				continue
			}
			dst := r.resolveLink(src, i, l)
			if dst == l.dst {
				continue
			}
			if l.edge && l.dst != nil {
				l.dst.back = l.dst.back.remove(src.path, 1)
			}
			l.dst = dst
			if l.edge && l.dst != nil {
				l.dst.back = l.dst.back.add(src.path, 1)
			}
		}
	}
}
