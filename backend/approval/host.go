package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

// ErrNotWaiting means an answer named a request that is not waiting (any more).
var ErrNotWaiting = errors.New("the request is not waiting (it was answered or withdrawn)")

// Host is a window's side of one vault's queue: it shows the window what waits, and
// writes the person's answers. Make one with Serve.
type Host struct {
	v       vault.State
	release func()
	lock    string
	notify  func(added []Request, closed []string)

	mu      sync.Mutex
	waiting map[string]Request
	stop    context.CancelFunc
	done    chan struct{}
}

// Serve opens the queue of vault v for a window: it announces the window (from now on
// Ask waits for an answer instead of saying ErrNoWindow) and, until Close, calls
// notify with the requests that arrived and the ids of those that went (answered here
// or elsewhere, or withdrawn by the asker), from its own goroutine.
func Serve(v vault.State, notify func(added []Request, closed []string)) (*Host, error) {
	id, err := newID()
	if err != nil {
		return nil, err
	}
	lock := dir + "/" + hostPrefix + id + hostSuffix
	release, ok, err := v.HoldCache(lock)
	if err != nil {
		return nil, fmt.Errorf("serve approvals: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("serve approvals: %s is held by another window", lock)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Host{v: v, release: release, lock: lock, notify: notify, waiting: map[string]Request{}, stop: cancel, done: make(chan struct{})}
	h.scan()
	go h.loop(ctx)
	return h, nil
}

// loop looks at the queue until ctx ends.
func (h *Host) loop(ctx context.Context) {
	defer close(h.done)
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.scan()
		}
	}
}

// scan reads the requests that wait, and tells notify what changed.
func (h *Host) scan() {
	names, err := h.v.ListCache(dir)
	if err != nil {
		return
	}
	now := map[string]Request{}
	answered := map[string]bool{}
	for _, n := range names {
		if id, ok := strings.CutSuffix(n, answerSuffix); ok {
			answered[id] = true
		}
	}
	for _, n := range names {
		id, ok := strings.CutSuffix(n, requestSuffix)
		if !ok || !validID(id) || answered[id] {
			continue
		}
		if r, known := h.known(id); known {
			now[id] = r
			continue
		}
		b, err := h.v.ReadCache(dir + "/" + n)
		var r Request
		if err != nil || json.Unmarshal(b, &r) != nil || r.ID != id {
			continue
		}
		now[id] = r
	}
	h.mu.Lock()
	var added []Request
	var closed []string
	for id, r := range now {
		if _, ok := h.waiting[id]; !ok {
			added = append(added, r)
		}
	}
	for id := range h.waiting {
		if _, ok := now[id]; !ok {
			closed = append(closed, id)
		}
	}
	h.waiting = now
	h.mu.Unlock()
	slices.SortFunc(added, func(a, b Request) int { return a.Created.Compare(b.Created) })
	if (len(added) > 0 || len(closed) > 0) && h.notify != nil {
		h.notify(added, closed)
	}
}

func (h *Host) known(id string) (Request, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.waiting[id]
	return r, ok
}

// Waiting returns the requests that wait for the person, oldest first.
func (h *Host) Waiting() []Request {
	h.mu.Lock()
	out := make([]Request, 0, len(h.waiting))
	for _, r := range h.waiting {
		out = append(out, r)
	}
	h.mu.Unlock()
	slices.SortFunc(out, func(a, b Request) int { return a.Created.Compare(b.Created) })
	return out
}

// Has reports whether the request id waits in this queue.
func (h *Host) Has(id string) bool {
	_, ok := h.known(id)
	return ok
}

// Answer writes the person's answer to the request id; ErrNotWaiting when it no
// longer waits.
func (h *Host) Answer(id string, approve bool) error {
	if !validID(id) {
		return fmt.Errorf("answer %q: %w", id, ErrNotWaiting)
	}
	if _, err := h.v.ReadCache(dir + "/" + id + requestSuffix); err != nil {
		return fmt.Errorf("answer %s: %w", id, ErrNotWaiting)
	}
	b, _ := json.Marshal(answer{Approve: approve})
	if err := h.v.WriteCache(dir+"/"+id+answerSuffix, b); err != nil {
		return fmt.Errorf("answer %s: %w", id, err)
	}
	h.scan()
	return nil
}

// Close stops hosting: Ask no longer finds this window. Requests stay for another
// window, or until their askers give up.
func (h *Host) Close() {
	h.stop()
	<-h.done
	h.release()
	_ = h.v.RemoveCache(h.lock)
}
