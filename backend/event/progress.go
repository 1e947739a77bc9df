package event

import (
	"sync"
	"sync/atomic"
	"time"
)

// The kinds of work reported on TaskProgress.
const (
	// TaskScan is a library reading and parsing its notes (at open, or a rescan after
	// the watcher lost events).
	TaskScan = "scan"
	// TaskSearchIndex is the full-text index of a library being built or brought up
	// to date with the files.
	TaskSearchIndex = "search-index"
)

// TaskProgressEvent is the payload of TaskProgress.
type TaskProgressEvent struct {
	Library string `json:"library"`
	// Kind is TaskScan or TaskSearchIndex.
	Kind  string `json:"kind"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	// Final is set on the last event of a piece of work; Error says why it stopped
	// early.
	Final bool   `json:"final"`
	Error string `json:"error,omitempty"`
}

// ProgressInterval is the least time between two TaskProgress events of one piece of
// work (the first and the last are always published).
const ProgressInterval = 100 * time.Millisecond

// Progress publishes the advance of one piece of work on TaskProgress: an event when
// it starts, at most one every ProgressInterval while it runs, and one when it ends.
//
// Concurrency: Add may be called from many goroutines at once; Finish once, after
// every Add. A nil *Progress (no bus) does nothing.
type Progress struct {
	bus     *Bus
	library string
	kind    string
	total   atomic.Int64
	done    atomic.Int64

	mu   sync.Mutex
	last time.Time
	// now is the clock (time.Now; a test moves it on instead of sleeping).
	now func() time.Time
}

// StartProgress publishes the start (0 of total) of work of the given kind on bus and
// returns its reporter; a nil bus gives a nil reporter, which does nothing.
func StartProgress(bus *Bus, library, kind string, total int) *Progress {
	if bus == nil {
		return nil
	}
	p := &Progress{bus: bus, library: library, kind: kind, now: time.Now}
	p.last = p.now()
	p.total.Store(int64(total))
	p.publish(0, false, "")
	return p
}

// SetTotal sets how many units the work has, once they are counted (work started
// before it knew), and publishes it.
func (p *Progress) SetTotal(total int) {
	if p == nil {
		return
	}
	p.total.Store(int64(total))
	p.mu.Lock()
	p.last = p.now()
	p.mu.Unlock()
	p.publish(int(p.done.Load()), false, "")
}

// Add records n more units done, publishing if ProgressInterval has passed since the
// last event.
func (p *Progress) Add(n int) {
	if p == nil {
		return
	}
	done := int(p.done.Add(int64(n)))
	now := p.now()
	p.mu.Lock()
	if now.Sub(p.last) < ProgressInterval {
		p.mu.Unlock()
		return
	}
	p.last = now
	p.mu.Unlock()
	p.publish(done, false, "")
}

// Finish publishes the final event: every unit done, or err's message if the work
// failed.
func (p *Progress) Finish(err error) {
	if p == nil {
		return
	}
	if err != nil {
		p.publish(int(p.done.Load()), true, err.Error())
		return
	}
	p.publish(int(p.total.Load()), true, "")
}

func (p *Progress) publish(done int, final bool, msg string) {
	total := int(p.total.Load())
	p.bus.Publish(Event{Topic: TaskProgress, Data: TaskProgressEvent{Library: p.library, Kind: p.kind, Done: min(done, total), Total: total, Final: final, Error: msg}})
}
