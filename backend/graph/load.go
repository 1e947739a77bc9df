package graph

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// Load replaces the whole graph with the given notes and other files, resolving
// every link once, in parallel. It is much faster than calling SetNote for each
// note. A path present in both notes and files is a note; a ".md" path only in
// files is a note without links; ignored paths are skipped. The graph takes
// ownership of the notes, as SetNote does.
func (g *Graph) Load(notes map[vpath.Path]*note.Note, files []vpath.Path) {
	in := make([]Entry, 0, len(notes)+len(files))
	for p, n := range notes {
		if n == nil {
			n = &note.Note{}
		}
		in = append(in, Entry{p, n})
	}
	for _, p := range files {
		if _, isNote := notes[p]; !isNote {
			in = append(in, Entry{Path: p})
		}
	}
	g.LoadSorted(in)
}

// Entry is one file of LoadSorted: a note, or an attachment when Note is nil (a
// ".md" path without a note is a note without links).
type Entry struct {
	Path vpath.Path
	Note *note.Note
}

// LoadSorted is Load for a list of files, fastest when it comes sorted by path with
// every path once, as a walk lists them: it is sorted here otherwise (stably: of a
// path listed twice, the first entry counts), and may be reordered. Ignored paths
// and the empty path are skipped. The graph takes ownership of the notes.
func (g *Graph) LoadSorted(in []Entry) {
	fresh := New()
	// Room for the stems of files and about as many of unresolved targets.
	fresh.byStem = make(map[string]*bucket, 2*len(in))
	if !sortedOnce(in) {
		slices.SortStableFunc(in, func(a, b Entry) int { return strings.Compare(string(a.Path), string(b.Path)) })
		in = slices.CompactFunc(in, func(a, b Entry) bool { return a.Path == b.Path })
	}
	// The files (their folded paths, hashes and stems) are made on every core.
	all := make([]*file, len(in))
	parallel(len(in), func(from, to int) {
		for i := from; i < to; i++ {
			p, n := in[i].Path, in[i].Note
			if p == "" || p.Ignored() {
				continue // left nil, dropped below
			}
			if n == nil && p.IsNote() {
				n = &note.Note{}
			}
			all[i] = newFile(p)
			all[i].note = n
		}
	})
	all = slices.DeleteFunc(all, func(f *file) bool { return f == nil })
	// The path indexes are not needed to resolve: they are made while it runs.
	var paths sync.WaitGroup
	paths.Go(func() { fresh.indexPaths(all) })
	fresh.indexStems(all)
	fresh.resolveParallel(all)
	paths.Wait()
	fresh.registerAll(all)

	g.mu.Lock()
	defer g.mu.Unlock()
	g.files, g.paths, g.byStem = fresh.files, fresh.paths, fresh.byStem
	g.peak = len(g.files) + len(g.byStem)
	g.aliases = fresh.aliases
	g.w = resolver{}
	g.gen.Add(1)
}

// sortedOnce reports whether in is sorted by path with no path twice, checked on
// every core.
func sortedOnce(in []Entry) bool {
	var unsorted atomic.Bool
	parallel(len(in), func(from, to int) {
		for i := max(from, 1); i < to; i++ {
			if in[i-1].Path >= in[i].Path {
				unsorted.Store(true)
				return
			}
		}
	})
	return !unsorted.Load()
}

// indexPaths fills the file map and the list of paths from files sorted by path.
func (g *Graph) indexPaths(all []*file) {
	g.files = make(map[vpath.Path]*file, len(all))
	g.paths = make([]vpath.Path, len(all))
	for i, f := range all {
		g.files[f.path] = f
		g.paths[i] = f.path
	}
}

// indexStems fills the buckets from files sorted by path: the map in one pass, then
// each bucket's order and entries on every core.
func (g *Graph) indexStems(all []*file) {
	made := make([]*bucket, 0, len(all))
	for _, f := range all {
		b := g.byStem[f.stem]
		if b == nil {
			b = &bucket{stem: f.stem}
			g.byStem[f.stem] = b
			made = append(made, b)
		}
		b.files = append(b.files, f)
	}
	parallel(len(made), func(from, to int) {
		for _, b := range made[from:to] {
			if len(b.files) > 1 {
				slices.SortStableFunc(b.files, byLenOrder)
			}
			b.ents = make([]entry, len(b.files))
			for i, f := range b.files {
				b.ents[i] = f.entry()
			}
			if len(b.files) > scanMax {
				b.indexKeys()
			}
		}
	})
}

// parallel calls fn with the bounds of consecutive parts of [0, n) on GOMAXPROCS
// goroutines (one part when n is small), and returns when every call has.
func parallel(n int, fn func(from, to int)) {
	parts := min(runtime.GOMAXPROCS(0), max(1, n/1024))
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() { fn(k*n/parts, (k+1)*n/parts) })
	}
	wg.Wait()
}

// resolveParallel builds and resolves the links of every note, sharing the work
// among GOMAXPROCS goroutines. The indexes are only read.
func (g *Graph) resolveParallel(all []*file) {
	workers := min(runtime.GOMAXPROCS(0), max(1, len(all)/256))
	var wg sync.WaitGroup
	next := make(chan []*file, workers)
	for range workers {
		wg.Go(func() {
			r := resolver{g: g, buf: make([]byte, 0, 256)}
			for chunk := range next {
				for _, f := range chunk {
					f.links = r.buildLinks(f)
				}
			}
		})
	}
	for i := 0; i < len(all); i += 512 {
		next <- all[i:min(i+512, len(all))]
	}
	close(next)
	wg.Wait()
}

// registerAll fills the reverse indexes. Files come in path order, so every
// insertion appends. Link dependencies (which touch byStem, buckets and link.b)
// and backlinks (which touch file.back) are built concurrently, each in two
// passes: count, then fill lists carved from one allocation.
func (g *Graph) registerAll(all []*file) {
	var wg sync.WaitGroup
	wg.Go(func() { g.registerDeps(all) })
	wg.Go(func() { registerBacklinks(all) })
	for _, f := range all {
		g.aliasRefs(f, addRef)
	}
	wg.Wait()
}

func (g *Graph) registerDeps(all []*file) {
	total := 0
	for _, f := range all {
		for i := range f.links {
			if l := &f.links[i]; l.stem != "" {
				if l.b == nil {
					l.b = g.bucket(l.stem)
				}
				l.b.n++
				total++
			}
		}
	}
	pool := make(refs, total)
	for _, b := range g.byStem {
		b.deps, pool = pool[:0:b.n], pool[b.n:]
		b.n = 0
	}
	for _, f := range all {
		for i := range f.links {
			if l := &f.links[i]; l.b != nil {
				l.b.deps = l.b.deps.addLast(f.path, 1)
			}
		}
	}
}

func registerBacklinks(all []*file) {
	total := 0
	for _, f := range all {
		for i := range f.links {
			if l := &f.links[i]; l.edge && l.dst != nil {
				l.dst.n++
				total++
			}
		}
	}
	pool := make(refs, total)
	for _, f := range all {
		f.back, pool = pool[:0:f.n], pool[f.n:]
		f.n = 0
	}
	for _, f := range all {
		for i := range f.links {
			if l := &f.links[i]; l.edge && l.dst != nil {
				l.dst.back = l.dst.back.addLast(f.path, 1)
			}
		}
	}
}
