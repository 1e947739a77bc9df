package vault

import (
	"sync"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// OwnWindow is how long OwnWrite remembers a write of this Vault.
const OwnWindow = 5 * time.Second

// ownWrites remembers the last content this Vault put at each path, for OwnWindow.
type ownWrites struct {
	mu    sync.Mutex
	m     map[vpath.Path]ownRec
	prune int // the size at which the map is next pruned
}

// ownPruneMin is the smallest size at which ownWrites prunes.
const ownPruneMin = 1024

type ownRec struct {
	h  Hash
	at time.Time
}

func (o *ownWrites) record(p vpath.Path, h Hash) {
	now := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = make(map[vpath.Path]ownRec)
	}
	// Prune, amortised: the map holds only recent writes. The next prune waits until
	// the map has doubled, so that a burst of more than ownPruneMin writes within
	// OwnWindow does not scan the whole map on every record.
	if len(o.m) >= max(o.prune, ownPruneMin) {
		for k, r := range o.m {
			if now.Sub(r.at) > OwnWindow {
				delete(o.m, k)
			}
		}
		o.prune = 2 * len(o.m)
	}
	o.m[p] = ownRec{h: h, at: now}
}

// OwnWrite reports whether this Vault put exactly the content with Hash h at p within
// the last OwnWindow; h == "" asks whether it removed p or renamed it away. The watcher's
// consumer uses it to tell the app's own writes from external edits: it hashes what it
// finds on disk and asks. Writes made through another Vault value, even in the same
// process, are not known here.
func (v *Vault) OwnWrite(p vpath.Path, h Hash) bool {
	v.own.mu.Lock()
	r, ok := v.own.m[p]
	v.own.mu.Unlock()
	return ok && r.h == h && time.Since(r.at) <= OwnWindow
}
