package vault

import (
	"context"
	"fmt"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// EchoWindow is how long after another MemoTree process journaled a write of a file
// the edit of it a watcher sees may be that write's echo (see AppendExternal).
const EchoWindow = time.Minute

// echoTailBytes is how much of the journey's end AppendExternal reads for the write an
// edit may echo: that entry is at most EchoWindow old, so near the end.
const echoTailBytes = 256 << 10

// AppendExternal records an edit of the file at p that this Vault did not make (actor
// "external", op "edit", the note's name as entity), unless it is the echo of a write
// another MemoTree process made and journaled: a `memotree call`, or an MCP server,
// writing the vault a window or a server of this process watches. OwnWrite knows only
// this Vault's writes, and the content tells nothing of who wrote it; but every
// MemoTree process journals its write under the vault lock it holds while writing the
// file, so under that lock the journey tells: when the newest successful entry naming
// p is another actor's, made within EchoWindow, and the file has not been modified
// since, the edit is that write, journaled already. It takes the vault lock (see Lock
// for ctx).
func (v *Vault) AppendExternal(ctx context.Context, p vpath.Path) error {
	if v.stage != nil {
		return v.stage.appendJourney(Entry{Actor: "external", Op: "edit", Entities: []string{p.Name()}})
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	defer unlock()
	if v.echoesJournaled(p) {
		return nil
	}
	return v.appendLocked(Entry{Actor: "external", Op: "edit", Entities: []string{p.Name()}, Outcome: "ok"})
}

// echoesJournaled reports whether the file at p is as a journaled write of another
// actor left it (see AppendExternal); the caller holds the vault lock.
func (v *Vault) echoesJournaled(p vpath.Path) bool {
	names := []string{string(p)}
	if p.IsNote() {
		names = append(names, p.Name())
	}
	es, err := v.JourneyLatest(echoTailBytes, names)
	if err != nil || len(es) == 0 {
		return false
	}
	e := es[len(es)-1] // the newest entry naming p
	if e.Actor == "external" || time.Since(e.Time) > EchoWindow {
		return false
	}
	st, err := v.root.Lstat(osName(p))
	if err != nil {
		return false
	}
	// Entries keep their time to the millisecond, cut down; the file was written
	// before its entry.
	return !st.ModTime().After(e.Time.Add(time.Millisecond))
}
