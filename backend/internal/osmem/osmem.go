// Package osmem gives memory back to the operating system soon after a large part of
// the heap became garbage (a huge note deleted, a search index compacted), instead of
// minutes later. The Go runtime collects when the heap has grown past its goal, or
// every two minutes when idle, and hands free pages back gradually: after a 60 MB note
// of 6.3 million links was deleted, `memotree serve` held about 900 MB for minutes
// although a few megabytes were live.
//
// Whoever lets go of at least Large bytes calls Release. A moment later (Settle, so
// that the other holders of the same data let go too) one full collection runs and
// every free page goes back (runtime/debug.FreeOSMemory), on a goroutine of its own;
// requests made meanwhile join it, and two returns are at least Every apart, since a
// full collection of a large heap takes a processor for a moment and the pages given
// back are faulted in again when the heap grows.
//
// The heap is the process's, so the pacing is too: Release uses one Returner per
// process (a package-level value, as runtime/debug's settings are process-wide). A
// Returner of its own paces a test's.
//
// Concurrency: safe for concurrent use.
package osmem

import (
	"runtime/debug"
	"sync"
	"time"
)

// Large is how many bytes let go of at once are worth a Release: a note of that size
// or the index of one.
const Large = 16 << 20

// MaxHugeHeap bounds what PrepareHugeHeap prepares (hugeheap_linux.go).
const MaxHugeHeap = 1 << 30

// The process's pacing (see the package documentation).
const (
	Settle = time.Second
	Every  = 10 * time.Second
)

// process paces the returns of the whole process.
var process = NewReturner(Settle, Every, debug.FreeOSMemory)

// Release asks for the memory just let go of to go back to the operating system (see
// the package documentation). It returns at once.
func Release() { process.Request() }

// Returner runs a function that returns memory (debug.FreeOSMemory) a moment after it
// is asked to, once for the requests of that moment, and never twice within a given
// interval.
type Returner struct {
	settle, every time.Duration
	free          func()
	now           func() time.Time
	after         func(time.Duration, func()) // time.AfterFunc, without its timer

	mu      sync.Mutex
	pending bool
	last    time.Time // when free last began
}

// NewReturner returns a Returner that calls free settle after a request, and never
// sooner than every after its previous call began.
func NewReturner(settle, every time.Duration, free func()) *Returner {
	return &Returner{settle: settle, every: every, free: free, now: time.Now,
		after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// Request schedules a call of free, unless one is pending already (it will return
// what this request's caller let go of too).
func (r *Returner) Request() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending {
		return
	}
	r.pending = true
	wait := r.settle
	if !r.last.IsZero() {
		wait = max(wait, r.last.Add(r.every).Sub(r.now()))
	}
	r.after(wait, r.run)
}

// run calls free. A request made while it runs schedules the next call, every later.
func (r *Returner) run() {
	r.mu.Lock()
	r.pending = false
	r.last = r.now()
	r.mu.Unlock()
	r.free()
}
