package uiapi

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/event"
)

// approvals are the window's approval queues, one per library (package approval):
// calls from other processes (an MCP client that cannot ask the person) that wait for
// the person here.
type approvals struct {
	mu    sync.Mutex
	hosts map[string]*approval.Host // by library name
}

// ServeApprovals makes the window the person's place to approve calls of other
// processes on its libraries (see package approval): requests arrive as
// approval:waiting events, and AnswerApproval answers them. The desktop app and
// `memotree serve` call it; stop ends it (other processes then find no window).
func ServeApprovals(a *API) (stop func(), err error) {
	a.approvals.mu.Lock()
	defer a.approvals.mu.Unlock()
	if a.approvals.hosts != nil {
		return nil, errors.New("serve approvals: already served")
	}
	a.approvals.hosts = map[string]*approval.Host{}
	bus := a.ws.Bus()
	for _, l := range a.ws.Libraries() {
		name := l.Name()
		h, err := approval.Serve(l.Vault(), func(added []approval.Request, closed []string) {
			for _, r := range added {
				bus.Publish(event.Event{Topic: event.ApprovalWaiting, Data: approvalEvent(name, r)})
			}
			for _, id := range closed {
				bus.Publish(event.Event{Topic: event.ApprovalClosed, Data: event.ApprovalEvent{ID: id, Library: name}})
			}
		})
		if err != nil {
			for _, h := range a.approvals.hosts {
				h.Close()
			}
			a.approvals.hosts = nil
			return nil, fmt.Errorf("serve approvals of %s: %w", name, err)
		}
		a.approvals.hosts[name] = h
	}
	return func() {
		a.approvals.mu.Lock()
		defer a.approvals.mu.Unlock()
		for _, h := range a.approvals.hosts {
			h.Close()
		}
		a.approvals.hosts = nil
	}, nil
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
		if h := a.approvals.hosts[l.Name()]; h != nil {
			for _, r := range h.Waiting() {
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
	for _, h := range a.approvals.hosts {
		if h.Has(id) {
			return h.Answer(id, approve)
		}
	}
	return fmt.Errorf("approval %q: %w", id, approval.ErrNotWaiting)
}
