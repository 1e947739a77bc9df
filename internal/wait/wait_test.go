package wait

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is a testing.TB that records a failure instead of ending the test.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a recorder on a goroutine of its own (Fatalf ends it) and
// returns the failure message, or "" if f returned.
func run(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

func TestForReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	start := time.Now()
	if msg := run(t, func(tb testing.TB) { For(tb, "three", func() bool { return n.Load() == 3 }) }); msg != "" {
		t.Fatalf("For failed: %s", msg)
	}
	if el := time.Since(start); el > Timeout/2 {
		t.Errorf("For returned after %v for a condition that held at once", el)
	}
}

func TestFailureSaysWhatWasAwaited(t *testing.T) {
	msg := run(t, func(tb testing.TB) {
		Within(tb, 30*time.Millisecond, "the note in the graph", func() bool { return false })
	})
	if want := "waited 30ms for the note in the graph"; msg != want {
		t.Errorf("failure = %q, want %q", msg, want)
	}
	last := 0
	msg = run(t, func(tb testing.TB) {
		within(tb, 30*time.Millisecond, "the summary", func() error {
			last++
			return errors.New("read " + fmt.Sprint(last) + " times")
		})
	})
	if want := fmt.Sprintf("waited 30ms for the summary; last seen: read %d times", last); msg != want || last < 2 {
		t.Errorf("failure = %q, want %q after several polls", msg, want)
	}
	if msg := run(t, func(tb testing.TB) { Until(tb, "nothing", func() error { return nil }) }); msg != "" {
		t.Errorf("Until failed on a check that passes: %s", msg)
	}
}
