package event

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// drain returns the TaskProgress events waiting in ch.
func drain(ch <-chan Event) []TaskProgressEvent {
	var out []TaskProgressEvent
	for {
		select {
		case e := <-ch:
			if e.Topic == TaskProgress {
				out = append(out, e.Data.(TaskProgressEvent))
			}
		default:
			return out
		}
	}
}

func TestProgressPublishesStartThrottledAdvanceAndEnd(t *testing.T) {
	b := NewBus()
	ch, cancel := b.Subscribe(1024)
	defer cancel()
	p := StartProgress(b, "lib", TaskScan, 1000)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 250 {
				p.Add(1)
			}
		})
	}
	wg.Wait()
	p.Finish(nil)
	got := drain(ch)
	if len(got) < 2 {
		t.Fatalf("got %d events, want a start and an end: %+v", len(got), got)
	}
	// A thousand quick adds are not a thousand events.
	if len(got) > 10 {
		t.Errorf("got %d events for a burst shorter than ProgressInterval", len(got))
	}
	first, last := got[0], got[len(got)-1]
	if first != (TaskProgressEvent{Library: "lib", Kind: TaskScan, Done: 0, Total: 1000}) {
		t.Errorf("first event %+v", first)
	}
	if last != (TaskProgressEvent{Library: "lib", Kind: TaskScan, Done: 1000, Total: 1000, Final: true}) {
		t.Errorf("last event %+v", last)
	}
}

func TestProgressPublishesWhileWorkRuns(t *testing.T) {
	b := NewBus()
	ch, cancel := b.Subscribe(64)
	defer cancel()
	p := StartProgress(b, "lib", TaskSearchIndex, 3)
	start := p.now()
	clock := start
	p.now = func() time.Time { return clock }
	p.Add(1) // within an interval of the start: not published
	clock = start.Add(ProgressInterval + time.Millisecond)
	p.Add(1) // more than an interval after the start: published
	got := drain(ch)
	if len(got) != 2 || got[1].Done != 2 || got[1].Final {
		t.Fatalf("got %+v, want the start and 2 of 3", got)
	}
	p.Finish(errors.New("disk gone"))
	got = drain(ch)
	if len(got) != 1 || !got[0].Final || got[0].Error != "disk gone" || got[0].Done != 2 {
		t.Fatalf("got %+v, want a final event with the error", got)
	}
}

func TestNilProgressDoesNothing(t *testing.T) {
	p := StartProgress(nil, "lib", TaskScan, 10)
	if p != nil {
		t.Fatal("a reporter without a bus")
	}
	p.Add(3)
	p.Finish(nil)
}

// TestBusKeepsTasksInProgress: Tasks lists the latest progress of unfinished work
// and of work that failed, and forgets work that finished.
func TestBusKeepsTasksInProgress(t *testing.T) {
	b := NewBus()
	scan := StartProgress(b, "b", TaskScan, 10)
	scan.Add(4)
	failed := StartProgress(b, "a", TaskScan, 3)
	failed.Finish(errors.New("disk gone"))
	done := StartProgress(b, "c", TaskScan, 1)
	done.Add(1)
	done.Finish(nil)
	got := b.Tasks()
	if len(got) != 2 {
		t.Fatalf("Tasks() = %+v, want the failed scan of a and the running one of b", got)
	}
	if a := got[0]; a.Library != "a" || !a.Final || a.Error == "" {
		t.Errorf("first task %+v, want a's failed scan", a)
	}
	if second := got[1]; second.Library != "b" || second.Final || second.Total != 10 {
		t.Errorf("second task %+v, want b's scan in progress", second)
	}
	scan.Finish(nil)
	if got := b.Tasks(); len(got) != 1 || got[0].Library != "a" {
		t.Errorf("after b's scan ended, Tasks() = %+v", got)
	}
}
