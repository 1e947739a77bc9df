package search

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vpath"
)

// libraryIndexes holds one Index per library, opened on first use (reading the
// persisted index and only the files changed since) and kept current through the
// library's change notifications.
//
// Concurrency: safe for concurrent use; opening an index holds the mutex, so a second
// caller waits for the first instead of building twice.
type libraryIndexes struct {
	emb     Embedder     // nil: no semantic search
	bus     *event.Bus   // nil: progress is not published
	atClose func(func()) // nil: indexes are never closed (one-shot processes)
	mu      sync.Mutex
	indexes map[*library.Library]*Index
}

// inBackground opens the index of every library once its scan has ended, one after
// the other, until the workspace closes. A failure is left for the first search to
// meet again (and report).
func (s *libraryIndexes) inBackground(libs []*library.Library, atClose func(func())) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	atClose(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		for _, l := range libs {
			if _, err := l.Graph(ctx); err != nil || ctx.Err() != nil {
				continue
			}
			if ix, err := s.get(ctx, l); err == nil {
				_ = ix.Refresh(ctx) // reconciled with the files now, not at the first search
			}
		}
	}()
}

// get returns the index of l, opening it on first use. A transaction's fork of a
// library has its parent's index, which does not hold the transaction's writes:
// IndexOf lays them over it (see stagedOverlay).
// has reports whether the index of l is open.
func (s *libraryIndexes) has(l *library.Library) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.indexes[l.Parent()]
	return ok
}

func (s *libraryIndexes) get(ctx context.Context, l *library.Library) (*Index, error) {
	l = l.Parent()
	s.mu.Lock()
	defer s.mu.Unlock()
	if ix, ok := s.indexes[l]; ok {
		return ix, nil
	}
	var (
		emu    sync.Mutex
		ix     *Index
		early  []vpath.Path
		rescan bool
	)
	// Subscribe first, so that no change applied while the index opens is missed.
	cancel := l.Subscribe(func(paths []vpath.Path, all bool) {
		emu.Lock()
		defer emu.Unlock()
		if ix == nil {
			early, rescan = append(early, paths...), rescan || all
			return
		}
		ix.Changed(paths, all)
	})
	var (
		progMu sync.Mutex
		prog   *event.Progress // the pass under way, nil between passes
	)
	// Deferred: a one-shot search narrows its candidates while the vault is checked
	// against the persisted index, instead of after.
	opts := Options{Deferred: true}
	if bus := s.bus; bus != nil {
		// Every pass that reads notes (the open, a later reconcile) is one task.
		opts.Progress = func(done, total int) {
			progMu.Lock()
			defer progMu.Unlock()
			if done == 0 {
				prog.Finish(nil) // a pass that never reported its end
				prog = event.StartProgress(bus, l.Name(), event.TaskSearchIndex, total)
			} else {
				prog.Add(1)
			}
			if done == total {
				prog.Finish(nil)
				prog = nil
			}
		}
	}
	opened, _, err := Open(ctx, l.State(), opts)
	if err != nil {
		progMu.Lock()
		prog.Finish(err)
		prog = nil
		progMu.Unlock()
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("open search index of %s: %w", l.Name(), err)
	}
	if s.emb != nil {
		var progress func(Progress)
		if bus := s.bus; bus != nil {
			name := l.Name()
			progress = func(p Progress) {
				bus.Publish(event.Event{Topic: event.SearchEmbedding, Data: event.EmbeddingProgress{Library: name, Done: p.Done, Total: p.Total, Final: p.Final, Error: p.Err}})
			}
		}
		opened.UseEmbedder(s.emb, progress)
	}
	emu.Lock()
	ix = opened
	ix.Changed(early, rescan)
	emu.Unlock()
	if s.indexes == nil {
		s.indexes = map[*library.Library]*Index{}
	}
	s.indexes[l] = ix
	stopVouching := func() {}
	if s.atClose != nil {
		stopVouching = s.vouch(l, ix)
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			stopVouching()
			cancel()
			_ = ix.Close() // saves what changed; a failed save is redone at the next open
		})
	}
	if s.atClose != nil {
		s.atClose(release)
	}
	// A library unmounted while the process goes on (the window closed a vault) lets
	// go of its index at once; the workspace's close does the same for the rest.
	l.OnClose(func() {
		s.mu.Lock()
		delete(s.indexes, l)
		s.mu.Unlock()
		if s.atClose != nil {
			release()
		}
	})
	return ix, nil
}

// vouch makes a long-running process whose library watches the vault vouch for the
// persisted index, so that one-shot processes need not walk the vault to find what
// changed (Voucher). It returns the function that stops it.
func (s *libraryIndexes) vouch(l *library.Library, ix *Index) (stop func()) {
	if !l.Watching() {
		return func() {}
	}
	vc := NewVoucher(ix)
	cancelFences := l.SubscribeFences(vc.Answer)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = vc.Start(ctx) // without a voucher one-shot processes walk the vault
	}()
	return func() {
		cancel()
		<-done
		cancelFences()
		vc.Close()
	}
}

// stagedOverlay is what a transaction's fork wrote that its parent's search index
// does not hold: the notes it changed or created, with their text, and those it
// removed.
type stagedOverlay struct {
	written map[vpath.Path][]byte // changed or created, still there
	removed map[vpath.Path]bool
}

// overlayOf returns the overlay of l; empty for a library that is no fork.
func overlayOf(l *library.Library) stagedOverlay {
	var o stagedOverlay
	for _, f := range l.Staged() {
		if !f.Path.IsNote() {
			continue
		}
		if f.Exists {
			if o.written == nil {
				o.written = map[vpath.Path][]byte{}
			}
			o.written[f.Path] = f.After
			continue
		}
		if o.removed == nil {
			o.removed = map[vpath.Path]bool{}
		}
		o.removed[f.Path] = true
	}
	return o
}

// empty reports whether the overlay changes nothing.
func (o stagedOverlay) empty() bool { return len(o.written) == 0 && len(o.removed) == 0 }

// isRemoved reports whether the transaction removed p.
func (o stagedOverlay) isRemoved(p vpath.Path) bool { return o.removed[p] }

// hidden reports whether the index's version of p is not the transaction's.
func (o stagedOverlay) hidden(p vpath.Path) bool {
	_, written := o.written[p]
	return written || o.removed[p]
}

// candidates lays the overlay over an index's pattern candidates: the notes the
// transaction wrote are candidates whatever the index says of them (their text is
// read from the transaction's view), and those it removed are none.
func (o stagedOverlay) candidates(c Candidates) Candidates {
	if o.empty() {
		return c
	}
	c.Notes = slices.DeleteFunc(c.Notes, o.hidden)
	c.Others = slices.DeleteFunc(c.Others, o.hidden)
	for p := range o.written {
		c.Notes = append(c.Notes, p)
	}
	slices.Sort(c.Notes)
	return c
}

// search answers a ranked full-text query on ix with the overlay laid over it
// (Index.SearchOver).
func (o stagedOverlay) search(ctx context.Context, ix *Index, r Request) ([]Hit, error) {
	if o.empty() {
		return ix.Search(ctx, r)
	}
	return ix.SearchOver(ctx, r, o.written, o.isRemoved)
}

// semantic drops from a semantic or hybrid answer the notes whose indexed version is
// not the transaction's, and counts the notes it wrote, which are left out (the
// embeddings of its notes are made once the transaction is applied).
func (o stagedOverlay) semantic(hits []Hit) ([]Hit, int) {
	if o.empty() {
		return hits, 0
	}
	hits = slices.DeleteFunc(hits, func(h Hit) bool { return o.hidden(h.Path) })
	return hits, len(o.written)
}
