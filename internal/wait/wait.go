// Package wait lets a test wait for the state it needs instead of sleeping a fixed
// time: it polls a condition until it holds, or fails the test, saying what was
// awaited, once a generous deadline has passed.
//
// The deadline is long (Timeout) because tests run on busy machines with two cores;
// a wait returns as soon as its condition holds, so a passing test never waits it
// out. It is imported by tests only. Concurrency: call For and Until from the test's
// own goroutine (they may call t.Fatalf); the condition may read state other
// goroutines change, through whatever synchronisation that state needs.
package wait

import (
	"errors"
	"testing"
	"time"
)

// Timeout is how long For and Until poll before they fail the test.
const Timeout = 30 * time.Second

// maxPoll is the longest pause between two polls; the first pauses are shorter, so a
// state reached at once is seen at once.
const maxPoll = 20 * time.Millisecond

// For polls cond until it returns true, and fails t with what (the state awaited,
// such as "the note in the graph") if it has not within Timeout.
func For(t testing.TB, what string, cond func() bool) {
	t.Helper()
	Within(t, Timeout, what, cond)
}

// Within is For with the deadline d instead of Timeout, for a state that takes
// longer to reach (a large index built in the background).
func Within(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	within(t, d, what, func() error {
		if cond() {
			return nil
		}
		return errNotYet
	})
}

// Until polls check until it returns nil; if it has not within Timeout it fails t
// with what and check's last error, which should describe the state last seen (the
// text read, the status got) so that the failure says how far the test came.
func Until(t testing.TB, what string, check func() error) {
	t.Helper()
	within(t, Timeout, what, check)
}

// errNotYet is the state of a condition that does not hold yet.
var errNotYet = errors.New("not yet")

func within(t testing.TB, d time.Duration, what string, check func() error) {
	t.Helper()
	start := time.Now()
	pause := time.Millisecond
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Since(start) > d {
			if err == errNotYet {
				t.Fatalf("waited %v for %s", d, what)
			}
			t.Fatalf("waited %v for %s; last seen: %v", d, what, err)
			return
		}
		time.Sleep(pause)
		pause = min(2*pause, maxPoll)
	}
}
