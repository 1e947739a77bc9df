package uiapi

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
)

// approvals are the window's approval queues, one per library (package approval):
// calls from other processes (an MCP client that cannot ask the person) that wait for
// the person here.
type approvals struct {
	mu      sync.Mutex
	serving bool
	hosts   map[*library.Library]*hosted
}

// hosted is a library's queue and where it lives.
type hosted struct {
	h      *approval.Host
	inside bool // in .memotree, rather than among the outside caches
}

// ServeApprovals makes the window the person's place to approve calls of other
// processes on its libraries (see package approval): requests arrive as
// approval:waiting events, and AnswerApproval answers them. The desktop app and
// `memotree serve` call it; stop ends it (other processes then find no window).
//
// A queue lives among the vault's runtime files (vault.WriteCache): in .memotree, or,
// for a folder nobody wrote in through MemoTree, in the user's cache folder, so that
// opening a folder writes nothing in it; after the first write (its change event) the
// queue moves into .memotree, where the other processes then look. Libraries opened
// later are served as they come, and a library's queue closes with it, before its
// vault does.
func ServeApprovals(a *API) (stop func(), err error) {
	a.approvals.mu.Lock()
	if a.approvals.serving {
		a.approvals.mu.Unlock()
		return nil, errors.New("serve approvals: already served")
	}
	a.approvals.serving = true
	a.approvals.hosts = map[*library.Library]*hosted{}
	a.approvals.mu.Unlock()
	for _, l := range a.ws.Libraries() {
		if err := a.hostApprovals(l); err != nil {
			a.stopApprovals()
			return nil, err
		}
	}
	ch, cancel := a.ws.Bus().Subscribe(64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			var name string
			switch d := e.Data.(type) {
			case event.LibrariesChange:
				name = d.Opened
			case event.VaultChange:
				name = d.Library
			}
			if l, err := a.ws.Library(name); name != "" && err == nil {
				_ = a.hostApprovals(l) // a failure leaves the library without a queue, as before
			}
		}
	}()
	return func() {
		cancel()
		<-done
		a.stopApprovals()
	}, nil
}

// hostApprovals serves the approval queue of l, unless it is served where the vault
// keeps its runtime files now.
func (a *API) hostApprovals(l *library.Library) error {
	a.approvals.mu.Lock()
	defer a.approvals.mu.Unlock()
	inside := l.Vault().CachesInside()
	cur := a.approvals.hosts[l]
	if !a.approvals.serving || (cur != nil && cur.inside == inside) {
		return nil
	}
	if cur != nil { // the first write made .memotree: the queue moves there
		cur.h.Close()
		delete(a.approvals.hosts, l)
	}
	bus, name := a.ws.Bus(), l.Name()
	h, err := approval.Serve(l.State(), func(added []approval.Request, closed []string) {
		for _, r := range added {
			bus.Publish(event.Event{Topic: event.ApprovalWaiting, Data: approvalEvent(name, r)})
		}
		for _, id := range closed {
			bus.Publish(event.Event{Topic: event.ApprovalClosed, Data: event.ApprovalEvent{ID: id, Library: name}})
		}
	})
	if err != nil {
		return fmt.Errorf("serve approvals of %s: %w", name, err)
	}
	hd := &hosted{h: h, inside: inside}
	a.approvals.hosts[l] = hd
	if cur == nil {
		l.OnClose(func() { // the vault is still open: the queue's lock file goes with it
			a.approvals.mu.Lock()
			defer a.approvals.mu.Unlock()
			if hd := a.approvals.hosts[l]; hd != nil {
				delete(a.approvals.hosts, l)
				hd.h.Close()
			}
		})
	}
	return nil
}

// stopApprovals closes every queue.
func (a *API) stopApprovals() {
	a.approvals.mu.Lock()
	defer a.approvals.mu.Unlock()
	for _, hd := range a.approvals.hosts {
		hd.h.Close()
	}
	a.approvals.hosts, a.approvals.serving = nil, false
}

func approvalEvent(library string, r approval.Request) event.ApprovalEvent {
	return event.ApprovalEvent{ID: r.ID, Library: library, From: r.From, Tool: r.Tool, Args: r.Args, Created: r.Created.Format(time.RFC3339)}
}

// Approvals returns the calls of other processes that wait for the person's approval
// in this window, oldest first (a window that opens shows them, then follows the
// approval:* events).
func (a *API) Approvals() ([]event.ApprovalEvent, error) {
	a.approvals.mu.Lock()
	defer a.approvals.mu.Unlock()
	out := []event.ApprovalEvent{}
	for _, l := range a.ws.Libraries() {
		if hd := a.approvals.hosts[l]; hd != nil {
			for _, r := range hd.h.Waiting() {
				out = append(out, approvalEvent(l.Name(), r))
			}
		}
	}
	return out, nil
}

// AnswerApproval answers the request id (from an approval:waiting event): approve runs
// the call, anything else declines it.
func (a *API) AnswerApproval(id string, approve bool) error {
	a.approvals.mu.Lock()
	defer a.approvals.mu.Unlock()
	for _, hd := range a.approvals.hosts {
		if hd.h.Has(id) {
			return hd.h.Answer(id, approve)
		}
	}
	return fmt.Errorf("approval %q: %w", id, approval.ErrNotWaiting)
}
