package library

import (
	"context"
	"sync"
	"time"
)

// Polling for a crashed batch: the library tries at once, and again every pollMin,
// backing off to pollMax, while the batch cannot be finished (a full disk).
const (
	pollMin = 50 * time.Millisecond
	pollMax = 5 * time.Second
)

// crashedBatches finishes, at once, a batch of writes whose writer died after its
// intent was recorded (see vault.Apply) while this library watches the vault: the
// watcher reports the intent appearing or changing, and the library asks the vault to
// finish a crashed one (vault.RecoverStale), before anyone reads or builds on its
// half. The vault's Lock does the same before every write; this covers a vault that
// is only read meanwhile. The files the batch changed reach the graph as any change on
// disk does, through the watcher.
type crashedBatches struct {
	l       *Library
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func newCrashedBatches(l *Library) *crashedBatches {
	c := &crashedBatches{l: l, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go c.loop()
	c.kick() // a batch's writer may have died before the library watched
	return c
}

// kick asks for a check.
func (c *crashedBatches) kick() {
	if c == nil {
		return
	}
	select {
	case c.wake <- struct{}{}:
	default: // a check is due already
	}
}

func (c *crashedBatches) close() {
	if c == nil {
		return
	}
	c.once.Do(func() {
		close(c.stop)
		<-c.stopped
	})
}

// loop waits for a kick, then tries until no crashed batch is left to finish.
func (c *crashedBatches) loop() {
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
		for pause := pollMin; c.l.vault.RecoverStale(ctx) != nil; pause = min(2*pause, pollMax) {
			select {
			case <-c.stop:
				return
			case <-time.After(pause):
			}
		}
	}
}
