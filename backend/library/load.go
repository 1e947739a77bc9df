package library

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vault"
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
	// walk is the listing of the scan to come or running, nil once the graph is
	// loaded (see Library.Listing).
	walk *walkRecord
}

// walkRecord is the listing a scan's walk made, kept for the window while the scan
// reads the notes: at 100k notes a second walk, made by the window's first calls
// while the scan keeps both cores busy, took as long as half the scan.
type walkRecord struct {
	done  chan struct{} // closed once the walk ended
	paths []vpath.Path  // the walk's answer; nil when it failed
}

// expectWalk returns the record the next scan's walk fills, making it when none
// waits: a background scan's is made before its goroutine starts, so that a window
// asking at once waits for that walk instead of making its own. A rescan of a loaded
// graph gets one that is not kept (nobody lists the folder then).
func (s *loadState) expectWalk() *walkRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ok.Load() {
		return &walkRecord{done: make(chan struct{})}
	}
	if s.walk == nil || s.walk.ended() {
		s.walk = &walkRecord{done: make(chan struct{})}
	}
	return s.walk
}

// dropWalk forgets the scan's listing (the graph is loaded, or the scan failed and
// the next one walks anew). The caller holds s.mu.
func (s *loadState) dropWalk() {
	if s.walk != nil && !s.walk.ended() {
		close(s.walk.done) // a scan that failed before it walked: nobody waits in vain
	}
	s.walk = nil
}

func (w *walkRecord) ended() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// Listing returns the vault's files and folders, sorted by path, as WalkPaths does,
// for a window that shows the tree before the graph is loaded. While a scan is about
// to run or runs, it is that scan's walk (waited for), which may miss a change made
// since; the scan's end brings the graph, and the window lists the files again
// then. Otherwise it walks the folder.
func (l *Library) Listing(ctx context.Context) ([]vault.FileInfo, error) {
	l.load.mu.Lock()
	w := l.load.walk
	l.load.mu.Unlock()
	if w != nil {
		select {
		case <-w.done:
			if w.paths != nil {
				files := make([]vault.FileInfo, len(w.paths))
				for i, p := range w.paths {
					files[i].Path = p
				}
				return files, nil
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return l.vault.WalkPaths(ctx)
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
		return l.runScan(ctx, done)
	}
}

// claimScan marks a scan as running before it starts, so that every caller of Graph
// waits for it instead of running its own (a library scanning in the background:
// the first request of a window could otherwise win the race to start the scan and,
// giving up, cancel it, and the scan would start over). The claimer calls runScan.
func (l *Library) claimScan() chan struct{} {
	l.load.mu.Lock()
	defer l.load.mu.Unlock()
	done := make(chan struct{})
	l.load.running = done
	return done
}

// runScan runs the scan claimed with done and ends the claim.
func (l *Library) runScan(ctx context.Context, done chan struct{}) error {
	prog, err := l.scan(ctx)
	if err == nil {
		l.applyDeferred(ctx) // returns holding the lock, the graph marked loaded
	} else {
		l.load.mu.Lock()
		l.load.deferred = nil // the next scan reads them from disk
		l.load.dropWalk()
	}
	l.load.running = nil
	l.load.mu.Unlock()
	close(done)
	// The scan ends for its watchers (the window reloads its tree then) once the
	// graph is loaded, not when the notes are read: resolving the links of 100k
	// notes takes seconds more.
	prog.Finish(nil)
	return err
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
			l.load.dropWalk()
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
