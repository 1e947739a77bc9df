package library

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vpath"
)

// loadState is the state of the full scan that loads the graph. A scan that fails or
// is cancelled leaves the graph unloaded, and the next caller that needs the graph
// scans again; a change indexed while a scan runs is kept and applied once it is done.
type loadState struct {
	mu sync.Mutex
	// running is closed when the running scan ends; nil when none runs.
	running chan struct{}
	// deferred are the paths changed while the scan ran, applied after it.
	deferred []vpath.Path
	// ok is set once a scan has loaded the graph; read without the lock on the fast
	// path of Graph.
	ok atomic.Bool
}

// Graph returns the library's link graph, first scanning the vault into it when that
// has not been done: a lazily opened library scans on first use, and a background scan
// still running is waited for (until ctx ends). It returns the scan's error; a scan
// that failed or was cancelled leaves nothing behind, and the next call scans again.
func (l *Library) Graph(ctx context.Context) (*graph.Graph, error) {
	if l.load.ok.Load() {
		return l.graph, nil
	}
	if err := l.ensureScanned(ctx); err != nil {
		return nil, err
	}
	return l.graph, nil
}

// Scanned reports whether the vault has been scanned into the graph (a lazy library
// defers that until something needs the graph; a failed scan leaves it false).
func (l *Library) Scanned() bool { return l.load.ok.Load() }

// ensureScanned loads the graph unless it is loaded: it runs the scan, or waits for the
// one running and, if that one failed (its caller gave up, say), runs its own.
func (l *Library) ensureScanned(ctx context.Context) error {
	for {
		if l.load.ok.Load() {
			return nil
		}
		l.load.mu.Lock()
		if l.load.ok.Load() {
			l.load.mu.Unlock()
			return nil
		}
		if running := l.load.running; running != nil {
			l.load.mu.Unlock()
			select {
			case <-running:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		done := make(chan struct{})
		l.load.running = done
		l.load.mu.Unlock()
		err := l.scan(ctx)
		if err == nil {
			l.applyDeferred(ctx) // returns holding the lock, the graph marked loaded
		} else {
			l.load.mu.Lock()
			l.load.deferred = nil // the next scan reads them from disk
		}
		l.load.running = nil
		l.load.mu.Unlock()
		close(done)
		return err
	}
}

// applyDeferred indexes the changes made while the scan ran until none is left, then
// marks the graph loaded and returns holding the lock, so that no change slips in
// between: later changes are indexed at once by their writers.
func (l *Library) applyDeferred(ctx context.Context) {
	ctx = context.WithoutCancel(ctx) // the scan is done: its changes are applied in full
	for {
		l.load.mu.Lock()
		paths := l.load.deferred
		l.load.deferred = nil
		if len(paths) == 0 {
			l.load.ok.Store(true)
			return
		}
		l.load.mu.Unlock()
		slices.Sort(paths)
		if changed := l.apply(ctx, slices.Compact(paths)); len(changed) > 0 {
			l.publish(changed, false)
		}
	}
}

// loadedOrDefer reports whether the graph is loaded, so that a change to paths must
// be indexed now. While a scan runs, it keeps the paths for the scan to apply when it
// is done; before any scan, the scan to come reads them from disk.
func (l *Library) loadedOrDefer(paths []vpath.Path) bool {
	if l.load.ok.Load() {
		return true
	}
	l.load.mu.Lock()
	defer l.load.mu.Unlock()
	if l.load.ok.Load() {
		return true
	}
	if l.load.running != nil {
		l.load.deferred = append(l.load.deferred, paths...)
	}
	return false
}
