package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Collector settings of one-shot commands. A short process on a small heap spends a
// good part of its time in the first, tiny collections (the heap goal starts at 4 MB)
// and in page faults for memory the collector would have handed back anyway: a lazier
// collector (lazyGCPercent) saves both. Once the live heap passes lazyGCUntil the
// default comes back, so a large vault never holds five times its live heap.
const (
	lazyGCPercent = 400
	lazyGCUntil   = 32 << 20
)

// lazyGCOnce makes lazyGC act once per process: a second call (tests run many
// commands in one process) would take the lazy setting for the default.
var lazyGCOnce sync.Once

// lazyGCChecks counts the checks of the live heap after a collection (a test waits
// for one instead of guessing when the cleanup has run).
var lazyGCChecks atomic.Int64

// lazyGC makes the collector lazy until the live heap reaches lazyGCUntil bytes; a
// GOGC set in the environment wins. It acts once per process.
func lazyGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	lazyGCOnce.Do(startLazyGC)
}

// startLazyGC sets the lazy percent and watches the heap after each collection with
// a sentinel object that is reclaimed, and re-armed, once per cycle, until the live
// heap is large enough to bring the previous percent back.
func startLazyGC() {
	old := debug.SetGCPercent(lazyGCPercent)
	var arm func()
	arm = func() {
		sentinel := new([16]byte) // big enough not to be a tiny allocation sharing a block
		runtime.AddCleanup(sentinel, func(struct{}) {
			// Just after a collection the heap's objects are about the live heap.
			// (runtime/metrics would say it exactly, but its start-up table costs every
			// process that links it.)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			defer lazyGCChecks.Add(1)
			if ms.HeapAlloc >= lazyGCUntil {
				debug.SetGCPercent(old)
				return
			}
			arm()
		}, struct{}{})
	}
	arm()
}
