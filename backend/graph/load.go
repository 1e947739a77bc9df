package graph

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/internal/parts"
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
	g.LoadSorted(len(in), func(i int) Entry { return in[i] })
}

// Entry is one file of LoadSorted: a note, or an attachment when Note is nil (a
// ".md" path without a note is a note without links). An empty Path is no file.
type Entry struct {
	Path vpath.Path
	Note *note.Note
}

// LoadSorted is Load for the n files entry(i) gives, fastest when they come sorted by
// path with every path once, as a walk lists them: they are gathered and sorted
// otherwise (stably: of a path listed twice, the first entry counts). entry is
// called on several goroutines at once, maybe more than once for an i; no list of
// the entries is made when they come sorted. Ignored paths and empty entries are
// skipped. The graph takes ownership of the notes. The reverse indexes are built
// too, unless the graph defers them (DeferReverse).
func (g *Graph) LoadSorted(n int, entry func(i int) Entry) {
	fresh := New()
	g.mu.RLock()
	lazy := g.lazy
	g.mu.RUnlock()
	// The map is made while the files are: making it writes all its memory, and a
	// fresh page is costly (on a virtual machine the host backs it too). It holds
	// the stems of files and, once the reverse indexes are built, about as many of
	// unresolved targets: a load that defers them makes it half as large, and every
	// link's lookup reads less memory.
	var made sync.WaitGroup
	room := 2 * n
	if lazy {
		room = n
	}
	made.Go(func() { fresh.byStem = make(map[string]*bucket, room) })
	if !sortedOnce(n, entry) {
		in := make([]Entry, n)
		for i := range in {
			in[i] = entry(i)
		}
		slices.SortStableFunc(in, func(a, b Entry) int { return strings.Compare(string(a.Path), string(b.Path)) })
		in = slices.CompactFunc(in, func(a, b Entry) bool { return a.Path == b.Path })
		n, entry = len(in), func(i int) Entry { return in[i] }
	}
	// The files (their folded paths, hashes and stems) are made on every core.
	all := make([]*file, n)
	parallel(n, func(from, to int) {
		for i := from; i < to; i++ {
			e := entry(i)
			if e.Path == "" || e.Path.Ignored() {
				continue // left nil, dropped below
			}
			if e.Note == nil && e.Path.IsNote() {
				e.Note = &note.Note{}
			}
			all[i] = newFile(e.Path)
			all[i].note = e.Note
		}
	})
	all = slices.DeleteFunc(all, func(f *file) bool { return f == nil })
	made.Wait()
	// The path indexes and the aliases are not needed to resolve: they are made
	// while it runs.
	var paths sync.WaitGroup
	paths.Go(func() {
		fresh.indexPaths(all)
		for _, f := range all {
			fresh.aliasRefs(f, addRef)
		}
	})
	fresh.indexStems(all)
	stats, tags := fresh.resolveParallel(all)
	paths.Wait()
	if !lazy {
		fresh.registerAll(all)
	}

	g.mu.Lock()
	defer g.mu.Unlock()
	g.reversed = !lazy
	g.files, g.paths, g.byStem = fresh.files, fresh.paths, fresh.byStem
	g.peak = len(g.files) + len(g.byStem)
	g.aliases = fresh.aliases
	g.w = resolver{}
	stats.Files = len(g.files)
	g.stats, g.tagCount, g.statsGen = stats, tags, g.gen.Add(1)
}

// sortedOnce reports whether the n entries are sorted by path with no path twice,
// empty entries aside, checked on every core.
func sortedOnce(n int, entry func(i int) Entry) bool {
	var unsorted atomic.Bool
	parallel(n, func(from, to int) {
		var prev vpath.Path // the last path before from
		for i := from - 1; i >= 0 && prev == ""; i-- {
			prev = entry(i).Path
		}
		for i := from; i < to; i++ {
			p := entry(i).Path
			if p == "" {
				continue
			}
			if prev != "" && prev >= p {
				unsorted.Store(true)
				return
			}
			prev = p
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

// indexStems fills the buckets from files sorted by path. A bucket is made for every
// file on every core, in one allocation a core (made on one core, they took as long
// as the map: a fresh page is costly, and Go zeroes a large allocation where it is
// made), and the map takes the first of each stem in one pass; each bucket's order
// and entries are then made on every core. A bucket of one file keeps a window on
// all (and on one allocation of entries) of capacity one, which a change copies
// before it grows.
func (g *Graph) indexStems(all []*file) {
	type part struct {
		from    int
		buckets []bucket
		ents    []entry
	}
	var (
		mu    sync.Mutex
		parts []part
	)
	parallel(len(all), func(from, to int) {
		p := part{from, make([]bucket, to-from), make([]entry, to-from)}
		for i := range p.buckets {
			f := all[from+i]
			p.buckets[i] = bucket{stem: f.stem, files: all[from+i : from+i+1 : from+i+1]}
		}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
	})
	slices.SortFunc(parts, func(a, b part) int { return a.from - b.from })
	for _, p := range parts {
		for i := range p.buckets {
			mine := &p.buckets[i]
			if b := g.byStem[mine.stem]; b != nil {
				b.files = append(b.files, all[p.from+i])
				mine.files = nil // not a bucket of the graph
			} else {
				g.byStem[mine.stem] = mine
			}
		}
	}
	parallel(len(all), func(from, to int) {
		for _, p := range parts {
			for i := max(from, p.from) - p.from; i < min(to, p.from+len(p.buckets))-p.from; i++ {
				finishBucket(&p.buckets[i], p.ents[i:i+1:i+1])
			}
		}
	})
}

// finishBucket orders the files of a bucket Load made and fills its entries, in one
// (one file) or a new allocation; b.files == nil marks no bucket.
func finishBucket(b *bucket, one []entry) {
	switch {
	case b.files == nil:
		return
	case len(b.files) == 1:
		b.ents = one
	default:
		slices.SortStableFunc(b.files, byLenOrder)
		b.ents = make([]entry, len(b.files))
	}
	for k, f := range b.files {
		b.ents[k] = f.entry()
	}
	if len(b.files) > scanMax {
		b.indexKeys()
	}
}

// parallel calls fn with the bounds of consecutive parts of [0, n) on GOMAXPROCS
// goroutines (one part when n is small), and returns when every call has.
func parallel(n int, fn func(from, to int)) {
	parts.Run(parts.Count(n, 1024), n, func(_, from, to int) { fn(from, to) })
}

// resolveParallel builds and resolves the links of every note, sharing the work
// among GOMAXPROCS goroutines, and counts them (Stats, but for Files) and the tags
// (TagCount), while each note is at hand: counted apart, the tags of 100k notes took
// a sequential 40 ms at the end of memotree index. The indexes are only read.
func (g *Graph) resolveParallel(all []*file) (Stats, int) {
	workers := min(runtime.GOMAXPROCS(0), max(1, len(all)/256))
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		stats Stats
		tags  []tagKeys
	)
	next := make(chan []*file, workers)
	for range workers {
		wg.Go(func() {
			r := resolver{g: g, buf: make([]byte, 0, 256)}
			var part Stats
			t := newTagKeys()
			for chunk := range next {
				for _, f := range chunk {
					f.links = r.buildLinks(f)
					f.count(&part)
					t.add(f.note)
				}
			}
			mu.Lock()
			stats.add(part)
			tags = append(tags, t)
			mu.Unlock()
		})
	}
	for i := 0; i < len(all); i += 512 {
		next <- all[i:min(i+512, len(all))]
	}
	close(next)
	wg.Wait()
	return stats, countTags(tags)
}

// Clone returns a graph of the same files and notes, which changes apart from g (a
// transaction's, which must not show in g until it is committed). The notes are
// shared, being immutable; everything that resolves them is built anew, as Load
// builds it, in a time of the order of Load's from parsed notes.
func (g *Graph) Clone() *Graph {
	g.mu.RLock()
	entries := make([]Entry, len(g.paths))
	for i, p := range g.paths {
		entries[i] = Entry{Path: p, Note: g.files[p].note}
	}
	g.mu.RUnlock()
	c := New()
	c.LoadSorted(len(entries), func(i int) Entry { return entries[i] })
	return c
}
