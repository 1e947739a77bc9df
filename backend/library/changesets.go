package library

import (
	"context"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/vault"
)

// Polling for crashed change sets: while one runs (in this process or another) the
// library checks every pollMin whether its owner died, backing off to pollMax while a
// crashed one cannot be rolled back (a full disk).
const (
	pollMin = 50 * time.Millisecond
	pollMax = 5 * time.Second
)

// changeSets rolls back, at once, a change set (a Starlark script) whose process died
// while this library watches the vault: the watcher reports the journals of change
// sets appearing and changing, and while any exists the library asks the vault to
// roll back those whose owner is gone (vault.RecoverStale), before anyone builds on
// their half. The vault's Lock does the same before every write; this covers a vault
// that is only read meanwhile.
type changeSets struct {
	l       *Library
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func newChangeSets(l *Library) *changeSets {
	c := &changeSets{l: l, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	l.vault.OnRecover(l.recovered)
	go c.loop()
	c.kick() // a change set may be running, or have crashed, before the library opened
	return c
}

// kick asks for a check.
func (c *changeSets) kick() {
	if c == nil {
		return
	}
	select {
	case c.wake <- struct{}{}:
	default: // a check is due already
	}
}

func (c *changeSets) close() {
	if c == nil {
		return
	}
	c.once.Do(func() {
		close(c.stop)
		<-c.stopped
	})
}

// loop waits for a kick, then checks until no change set is left.
func (c *changeSets) loop() {
	defer close(c.stopped)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-c.stop
		cancel()
	}()
	for {
		select {
		case <-c.stop:
			return
		case <-c.wake:
		}
		pause := pollMin
		for {
			pending, err := c.l.vault.RecoverStale(ctx)
			if err == nil && pending == 0 {
				break
			}
			if err != nil {
				pause = min(2*pause, pollMax)
			}
			select {
			case <-c.stop:
				return
			case <-time.After(pause):
			}
		}
	}
}

// recovered re-reads what a rollback of a crashed change set touched and tells the
// window: briefly when everything was put back, until dismissed when files were kept
// or the rollback failed.
func (l *Library) recovered(r vault.Recovery) {
	ctx := context.Background()
	l.Refresh(ctx, append(append(r.Restored[:0:0], r.Restored...), r.Kept...)...)
	if l.bus == nil {
		return
	}
	ev := event.TaskProgressEvent{Library: l.name, Kind: event.TaskRecovery, Done: len(r.Restored), Total: len(r.Restored) + len(r.Kept), Final: true}
	if len(r.Kept) > 0 || r.Err != nil {
		ev.Error = r.Message()
	}
	l.bus.Publish(event.Event{Topic: event.TaskProgress, Data: ev})
}

// damaged tells the window of an undo journal that no rollback can use: a recovery
// task, until dismissed, that says why and to run `memotree doctor --repair`.
func (l *Library) damaged(d vault.DamagedJournal) {
	if l.bus == nil {
		return
	}
	ev := event.TaskProgressEvent{Library: l.name, Kind: event.TaskRecovery, Total: len(d.Paths), Final: true, Error: d.Message()}
	l.bus.Publish(event.Event{Topic: event.TaskProgress, Data: ev})
}
