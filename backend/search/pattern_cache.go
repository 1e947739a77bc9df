package search

import (
	"bytes"
	"context"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/internal/osmem"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// cacheBudget is how many bytes of note text one library's search cache may hold;
// notes past it are read from disk on every search.
const cacheBudget = 256 << 20

// textCaches keeps one cachedCorpus per library for the searches of one Engine.
type textCaches struct {
	mu      sync.Mutex
	corpora map[*library.Library]*cachedCorpus
}

// corpus returns the cache of l, creating it on first use.
func (s *textCaches) corpus(l *library.Library) textCorpus {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.corpora == nil {
		s.corpora = map[*library.Library]*cachedCorpus{}
	}
	c, ok := s.corpora[l]
	if !ok {
		c = &cachedCorpus{l: l, disk: diskCorpus{l.Vault()}, notes: map[vpath.Path]cachedNote{}}
		s.corpora[l] = c
		cancel := l.Subscribe(func(paths []vpath.Path, _ bool) { c.forget(paths) })
		l.OnClose(func() { // an unmounted library's text leaves with it
			cancel()
			s.mu.Lock()
			delete(s.corpora, l)
			s.mu.Unlock()
		})
	}
	return c
}

// forget drops the text of the notes at paths, which changed or were deleted, as the
// library applies the change: a deleted 20 MB note's text stayed until the next
// pattern search otherwise (a rescan's notes are pruned then, by version). Letting go
// of osmem.Large bytes or more hands the memory back (osmem.Release).
func (c *cachedCorpus) forget(paths []vpath.Path) {
	c.mu.Lock()
	freed := 0
	for _, p := range paths {
		if e, ok := c.notes[p]; ok {
			freed += len(e.data)
			c.used -= len(e.data)
			delete(c.notes, p)
		}
	}
	c.mu.Unlock()
	if freed >= osmem.Large {
		osmem.Release()
	}
}

// cachedCorpus is a textCorpus that keeps the text of the notes it read, up to
// cacheBudget bytes, and reads a note again only when the library's graph holds a new
// version of it: the graph replaces a note's parsed form whenever the file changes
// (through a tool's Refresh or the watcher), so its identity is the version.
//
// Concurrency: safe for concurrent scans; the map is guarded by mu.
type cachedCorpus struct {
	l      *library.Library
	disk   diskCorpus
	mu     sync.RWMutex
	used   int
	notes  map[vpath.Path]cachedNote
	pruned uint64 // the graph's generation when stale notes were last dropped
}

// cachedNote is the text of a note as it was when the graph held version ver.
type cachedNote struct {
	ver  *note.Note
	data []byte
}

// scan implements textCorpus: cached notes are matched in parallel while the others
// are read from disk, matched and remembered.
func (c *cachedCorpus) scan(ctx context.Context, paths []vpath.Path, keep func([]byte) bool, visit func(int, []byte)) ([]string, error) {
	g, err := c.l.Graph(ctx)
	if err != nil {
		return nil, err
	}
	c.prune(g)
	vers := make([]*note.Note, len(paths))
	var missing, hits []int
	var texts [][]byte
	c.mu.RLock()
	for i, p := range paths {
		vers[i], _ = g.Note(p) // the version first, then the text: never newer text under an older version
		if e, ok := c.notes[p]; ok && e.ver != nil && e.ver == vers[i] {
			hits, texts = append(hits, i), append(texts, e.data)
			continue
		}
		missing = append(missing, i)
	}
	c.mu.RUnlock()
	var wg sync.WaitGroup
	wg.Go(func() {
		parallelFor(ctx, len(hits), func(k int) {
			if keep(texts[k]) {
				visit(hits[k], texts[k])
			}
		})
	})
	var problems []string
	if len(missing) > 0 {
		sub := make([]vpath.Path, len(missing))
		for j, i := range missing {
			sub[j] = paths[i]
		}
		problems, err = c.disk.scan(ctx, sub, func([]byte) bool { return true }, func(j int, data []byte) {
			i := missing[j]
			if data == nil {
				visit(i, nil) // unreadable
				return
			}
			data = c.remember(paths[i], vers[i], data)
			if keep(data) {
				visit(i, data)
			}
		})
	}
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return problems, err
}

// parallelFor calls fn(0) … fn(n-1) on GOMAXPROCS goroutines, stopping early when
// ctx is done.
func parallelFor(ctx context.Context, n int, fn func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n || ctx.Err() != nil {
					return
				}
				fn(k)
			}
		})
	}
	wg.Wait()
}

// prune drops the text of notes that were deleted or changed since they were cached,
// once per change of the graph: a deleted note's text (20 MB for a generated list)
// stayed in memory until the budget filled up.
func (c *cachedCorpus) prune(g *graph.Graph) {
	gen := g.Generation()
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.pruned {
		return
	}
	c.pruned = gen
	dropped := false
	for p, e := range c.notes {
		if v, ok := g.Note(p); !ok || v != e.ver {
			c.used -= len(e.data)
			delete(c.notes, p)
			dropped = true
		}
	}
	if dropped { // a map keeps the room of what it held: copy what is left
		fresh := make(map[vpath.Path]cachedNote, len(c.notes))
		maps.Copy(fresh, c.notes)
		c.notes = fresh
	}
}

// remember caches a copy of the text of a note if the budget allows, and returns the
// copy (or data itself when it was not cached).
func (c *cachedCorpus) remember(p vpath.Path, ver *note.Note, data []byte) []byte {
	if ver == nil {
		return data
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := len(c.notes[p].data)
	if c.used-old+len(data) > cacheBudget {
		return data
	}
	data = bytes.Clone(data)
	c.used += len(data) - old
	c.notes[p] = cachedNote{ver: ver, data: data}
	return data
}
