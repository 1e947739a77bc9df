package autosync

import (
	"context"
	"time"
)

// Event is what Run is told of.
type Event int

// The events of a vault.
const (
	// Opened: the vault was opened (pull, if set).
	Opened Event = iota
	// Touched: a file of the vault changed (the person is not idle).
	Touched
	// HeadMoved: the repository changed, a commit perhaps (push, if set and ahead).
	HeadMoved
	// Resettle: the settings changed; the next timed sync is computed again.
	Resettle
)

// Run drives x from one goroutine until ctx ends: each event as it comes, and the
// due work (Due) when Next says, on x's clock.
func (x *Syncer) Run(ctx context.Context, events <-chan Event) {
	for {
		var wake <-chan time.Time
		if next := x.Next(); !next.IsZero() {
			wake = x.clock.After(max(next.Sub(x.clock.Now()), 0))
		}
		select {
		case <-ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				return
			}
			switch e {
			case Opened:
				x.Opened(ctx)
			case Touched:
				x.Touched()
			case HeadMoved:
				x.Committed(ctx)
			}
		case <-wake:
			x.Due(ctx)
		}
	}
}
