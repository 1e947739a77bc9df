package osmem

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReturnerPaces: a burst of requests makes one call, Settle later; a request
// after a call waits until Every has passed since it; requests while one is pending
// join it. The clock and the timer are the test's.
func TestReturnerPaces(t *testing.T) {
	clock := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	var waits []time.Duration
	var due []func()
	calls := 0
	r := NewReturner(time.Second, 10*time.Second, func() { calls++ })
	r.now = func() time.Time { return clock }
	r.after = func(d time.Duration, f func()) { waits, due = append(waits, d), append(due, f) }
	fire := func(after time.Duration) {
		t.Helper()
		if len(due) != 1 {
			t.Fatalf("%d calls scheduled, want 1", len(due))
		}
		clock = clock.Add(after)
		f := due[0]
		due = nil
		f()
	}

	for range 100 {
		r.Request()
	}
	fire(time.Second)
	clock = clock.Add(2 * time.Second)
	r.Request() // 2 s after the call: waits the 8 s left of the interval
	r.Request()
	fire(8 * time.Second)
	clock = clock.Add(time.Minute)
	r.Request() // long after: the settling time only
	fire(time.Second)
	if diff := cmp.Diff([]time.Duration{time.Second, 8 * time.Second, time.Second}, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if calls != 3 {
		t.Errorf("%d calls, want 3", calls)
	}
}
