package graph

import "sync"

// The reverse indexes of links: the backlinks of each file (file.back) and, for each
// stem, the notes whose links name it (bucket.deps, with a bucket for every stem a
// link names, and link.b set on every link with a stem). Backlinks and Neighbors
// read them; every change reads and updates them. Load builds them, 24 bytes a link
// (50 MB and a tenth of the time of a full index at 100,000 notes), unless the graph
// defers them (DeferReverse): then the first reader or writer that needs them builds
// them, and a one-shot index that never does (memotree index) never pays for them.
// Built late or at once, they are the same (TestDeferredReverseEqualsEager).

// DeferReverse makes Load and LoadSorted leave the reverse indexes to be built on
// first use, by the first call of Backlinks, Neighbors, SetNote, SetFile or Remove.
// It suits a graph loaded to be read once; a graph kept current gains nothing, as its
// first change builds them.
func (g *Graph) DeferReverse() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lazy = true
}

// rlockReversed takes the read lock with the reverse indexes built, building them
// first under the write lock when a deferred Load left them out. A Load may come in
// between the two locks and leave them out again: then it builds again.
func (g *Graph) rlockReversed() {
	g.mu.RLock()
	for !g.reversed {
		g.mu.RUnlock()
		g.mu.Lock()
		g.buildReverse()
		g.mu.Unlock()
		g.mu.RLock()
	}
}

// buildReverse builds the reverse indexes unless they are built. The caller holds the
// write lock. Nothing changed the graph since the Load that left them out (a change
// builds them first), so the files are as Load left them, in path order.
func (g *Graph) buildReverse() {
	if g.reversed {
		return
	}
	all := make([]*file, len(g.paths))
	for i, p := range g.paths {
		all[i] = g.files[p]
	}
	g.registerAll(all)
	g.reversed = true
}

// registerAll fills the reverse indexes of links (Load fills the aliases'). Files
// come in path order, so every insertion appends. Link dependencies (which touch
// byStem, buckets and link.b) and backlinks (which touch file.back) are built
// concurrently, each in two passes: count, then fill lists carved from one
// allocation.
func (g *Graph) registerAll(all []*file) {
	var wg sync.WaitGroup
	wg.Go(func() { registerBacklinks(all) })
	g.registerDeps(all)
	wg.Wait()
}

func (g *Graph) registerDeps(all []*file) {
	total := 0
	for _, f := range all {
		for i := range f.links {
			if l := &f.links[i]; l.stemmed {
				if l.b == nil {
					l.b = g.linkBucket(f, i)
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
