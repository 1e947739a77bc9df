// Package autosync keeps a vault backed up on its git remote without the person
// thinking about it, as Obsidian Git's auto backup does: pull when the vault opens,
// push after each commit, and every few minutes, once the person has been idle for a
// while, a sync (pull, then push). It never commits a change an agent made that
// nobody reviewed: when asked to (Settings.CommitOwn), only the person's own edits
// are committed before a timed sync. A sync that fails says why once (State.Error,
// kept until it succeeds) and is retried with back-off, never in a loop of errors;
// while conflicts or a git operation wait for the person, nothing is synced.
//
// Concurrency: a Syncer is safe for concurrent use; its operations run one at a time.
// Its methods do the work in the caller's goroutine (a test drives them with a clock it
// controls); Run calls them from one goroutine, on events and when work is due.
package autosync

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
)

// Clock tells the time and waits; the real one is time's, a test's moves when told.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// realClock is time itself.
type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Options configure a Syncer.
type Options struct {
	// Clock tells the time; nil is the real clock.
	Clock Clock
	// IdleAfter is how long after the person's last edit they count as idle for a
	// timed sync; 0 is DefaultIdle.
	IdleAfter time.Duration
	// OnChange, when set, is called (outside the Syncer's lock) after each operation
	// whose outcome changed the State, and when the settings change.
	OnChange func(State)
	// Timeout bounds one operation; 0 is DefaultTimeout.
	Timeout time.Duration
}

// Back-off and idleness.
const (
	DefaultIdle    = time.Minute      // no edit for this long: the person is idle
	DefaultTimeout = 2 * time.Minute  // one operation at most
	FirstBackoff   = 30 * time.Second // the first retry after a failure
	MaxBackoff     = 30 * time.Minute // retries never wait longer
)

// The operations a Syncer runs.
const (
	OpPull = "pull"
	OpPush = "push"
	OpSync = "sync" // the person's own edits committed (when asked), pull, push
)

// State is what the status bar shows of a vault's backup.
type State struct {
	Settings Settings `json:"settings"`
	// Running is the operation under way, "" when none.
	Running string `json:"running"`
	// LastSync is when a pull, push or sync last succeeded (zero: never).
	LastSync time.Time `json:"last_sync"`
	// Error says why the last operation failed, kept until one succeeds; Failures
	// counts the failures in a row, and RetryAt is when the failed operation is tried
	// again (zero when none failed).
	Error    string    `json:"error"`
	Failures int       `json:"failures"`
	RetryAt  time.Time `json:"retry_at"`
	// Waiting says why nothing is synced now (conflicts to resolve, a rebase in
	// progress), "" when nothing waits.
	Waiting string `json:"waiting"`
	// Divergence compares the branch with the remote's copy as last fetched.
	Divergence gitrepo.Divergence `json:"divergence"`
	// Committed counts the files the last timed sync committed of the person's own.
	Committed int `json:"committed"`
}

// Syncer keeps one vault backed up (see the package doc).
type Syncer struct {
	target  Target
	clock   Clock
	idle    time.Duration
	timeout time.Duration
	notify  func(State)

	run sync.Mutex // held while an operation runs

	mu           sync.Mutex
	st           State
	retryOp      string
	lastTimed    time.Time // when the last timed sync ran (or the Syncer started)
	lastActivity time.Time
}

// New returns a Syncer of target with settings s.
func New(target Target, s Settings, o Options) *Syncer {
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.IdleAfter <= 0 {
		o.IdleAfter = DefaultIdle
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	now := o.Clock.Now()
	x := &Syncer{target: target, clock: o.Clock, idle: o.IdleAfter, timeout: o.Timeout, notify: o.OnChange, lastTimed: now}
	x.st.Settings = s.Normal()
	if d, err := target.Divergence(); err == nil {
		x.st.Divergence = d
	}
	return x
}

// State returns the backup's state now.
func (x *Syncer) State() State {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.st
}

// SetSettings replaces the settings; a timed sync counts its interval from now.
func (x *Syncer) SetSettings(s Settings) {
	x.mu.Lock()
	x.st.Settings = s.Normal()
	x.lastTimed = x.clock.Now()
	st := x.st
	x.mu.Unlock()
	if x.notify != nil {
		x.notify(st)
	}
}

// Touched records an edit of the person's: a timed sync waits until they are idle.
func (x *Syncer) Touched() {
	x.mu.Lock()
	x.lastActivity = x.clock.Now()
	x.mu.Unlock()
}

// Opened pulls, when the settings say so, as the vault opens.
func (x *Syncer) Opened(ctx context.Context) {
	if x.State().Settings.PullOnOpen {
		x.do(ctx, OpPull)
	}
}

// Committed pushes, when the settings say so and the branch is ahead of the remote's
// copy: a commit was made (or HEAD moved). It does nothing while a failure's back-off
// runs: the retry comes when due.
func (x *Syncer) Committed(ctx context.Context) {
	st := x.State()
	if !st.Settings.PushOnCommit || st.Failures > 0 {
		x.refresh()
		return
	}
	d, err := x.target.Divergence()
	if err != nil || d.Ahead == 0 {
		x.refresh()
		return
	}
	x.do(ctx, OpPush)
}

// refresh reads the divergence again (a commit or a fetch changed it) and tells of a
// change.
func (x *Syncer) refresh() {
	d, err := x.target.Divergence()
	if err != nil {
		return
	}
	x.mu.Lock()
	changed := d != x.st.Divergence
	x.st.Divergence = d
	st := x.st
	x.mu.Unlock()
	if changed && x.notify != nil {
		x.notify(st)
	}
}

// Next returns when Due has work: the retry of a failed operation, else the next
// timed sync (its interval after the last, and the person idle); zero when none.
func (x *Syncer) Next() time.Time {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.st.Failures > 0 {
		return x.st.RetryAt
	}
	if x.st.Settings.IntervalMinutes <= 0 {
		return time.Time{}
	}
	at := x.lastTimed.Add(time.Duration(x.st.Settings.IntervalMinutes) * time.Minute)
	if !x.lastActivity.IsZero() {
		if idle := x.lastActivity.Add(x.idle); idle.After(at) {
			at = idle
		}
	}
	return at
}

// Due runs what is due now (see Next), if anything.
func (x *Syncer) Due(ctx context.Context) {
	next := x.Next()
	if next.IsZero() || x.clock.Now().Before(next) {
		return
	}
	x.mu.Lock()
	op := OpSync
	if x.st.Failures > 0 {
		op = x.retryOp
	} else {
		x.lastTimed = x.clock.Now()
	}
	x.mu.Unlock()
	x.do(ctx, op)
}

// SyncNow syncs at once (pull, then push), whatever the settings and the back-off.
func (x *Syncer) SyncNow(ctx context.Context) { x.do(ctx, OpSync) }

// do runs op and records its outcome.
func (x *Syncer) do(ctx context.Context, op string) {
	x.run.Lock()
	defer x.run.Unlock()
	x.mu.Lock()
	x.st.Running = op
	x.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, x.timeout)
	defer cancel()
	waiting, committed, err := x.perform(ctx, op)
	d, derr := x.target.Divergence()
	now := x.clock.Now()
	x.mu.Lock()
	x.st.Running, x.st.Waiting = "", waiting
	if derr == nil {
		x.st.Divergence = d
	}
	if op == OpSync {
		x.st.Committed = committed
	}
	switch {
	case err != nil && !errors.Is(ctx.Err(), context.Canceled):
		x.st.Failures++
		x.st.Error = err.Error()
		x.st.RetryAt = now.Add(backoff(x.st.Failures))
		x.retryOp = op
	case err == nil && waiting == "":
		x.st.Failures, x.st.Error, x.st.RetryAt, x.retryOp = 0, "", time.Time{}, ""
		x.st.LastSync = now
	}
	st := x.st
	x.mu.Unlock()
	if x.notify != nil {
		x.notify(st)
	}
}

// perform runs op against the target: nothing while the repository waits for the
// person; a sync commits the person's own edits first when asked.
func (x *Syncer) perform(ctx context.Context, op string) (waiting string, committed int, err error) {
	if waiting, err = x.target.Waiting(ctx); err != nil || waiting != "" {
		return waiting, 0, err
	}
	st := x.State()
	if op == OpSync && st.Settings.CommitOwn {
		paths, err := x.target.CommitOwn(ctx, st.Settings.MessageTemplate, x.clock.Now())
		if err != nil {
			return "", 0, fmt.Errorf("commit your edits: %w", err)
		}
		committed = len(paths)
	}
	if op == OpPull || op == OpSync {
		res, err := x.target.Pull(ctx)
		if err != nil {
			return "", committed, err
		}
		if res.Outcome == gitrepo.PullConflict || len(res.Conflicts) > 0 {
			return fmt.Sprintf("the pull left %d conflicted notes to resolve", len(res.Conflicts)), committed, nil
		}
	}
	if op == OpPush || op == OpSync {
		if _, err := x.target.Push(ctx); err != nil {
			return "", committed, err
		}
	}
	return "", committed, nil
}

// backoff is the wait before the n-th retry: 30 s, doubling, at most 30 minutes.
func backoff(n int) time.Duration {
	d := FirstBackoff
	for i := 1; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}
