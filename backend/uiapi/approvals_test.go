package uiapi_test

import (
	"errors"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vault"
)

// TestApprovalsReachTheWindow: with the window's approval queue served, a request
// another process makes on the library (a Vault of its own) arrives as an
// approval:waiting event and in Approvals; the person's answer goes back to the asker,
// and approval:closed follows. Without the queue served, the asker hears at once that
// no window is open.
func TestApprovalsReachTheWindow(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	api, ws := openAPI(t, dir)
	other, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	req := approval.Request{From: "mcp:Some Client", Library: "v", Tool: "delete_entities", Args: `{"entity_names":["a"]}`}
	if _, err := approval.Ask(t.Context(), other, req); !errors.Is(err, approval.ErrNoWindow) {
		t.Fatalf("Ask before the window serves = %v", err)
	}
	ch, cancel := ws.Bus().Subscribe(64)
	defer cancel()
	stop, err := uiapi.ServeApprovals(api)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := uiapi.ServeApprovals(api); err == nil {
		t.Error("the queue was served twice")
	}
	answer := make(chan bool, 1)
	go func() {
		yes, err := approval.Ask(t.Context(), other, req)
		if err != nil {
			t.Errorf("Ask: %v", err)
		}
		answer <- yes
	}()
	got := next(t, ch, event.ApprovalWaiting)
	if got.Library != "v" || got.From != "mcp:Some Client" || got.Tool != "delete_entities" || got.Args != req.Args || got.Created == "" {
		t.Errorf("approval:waiting = %+v", got)
	}
	if list, err := api.Approvals(); err != nil || len(list) != 1 || list[0].ID != got.ID {
		t.Errorf("Approvals = %+v, %v", list, err)
	}
	if err := api.AnswerApproval("0123456789abcdef01234567", true); err == nil {
		t.Error("an unknown request was answered")
	}
	if err := api.AnswerApproval(got.ID, true); err != nil {
		t.Fatal(err)
	}
	select {
	case yes := <-answer:
		if !yes {
			t.Error("the asker heard no")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the asker got no answer")
	}
	if closed := next(t, ch, event.ApprovalClosed); closed.ID != got.ID {
		t.Errorf("approval:closed = %+v", closed)
	}
	if list, _ := api.Approvals(); len(list) != 0 {
		t.Errorf("still waiting: %+v", list)
	}
	stop()
	if _, err := approval.Ask(t.Context(), other, req); !errors.Is(err, approval.ErrNoWindow) {
		t.Errorf("Ask after the window stopped = %v", err)
	}
}

func next(t *testing.T, ch <-chan event.Event, topic event.Topic) event.ApprovalEvent {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e := <-ch:
			if e.Topic == topic {
				return e.Data.(event.ApprovalEvent)
			}
		case <-deadline:
			t.Fatalf("no %s event", topic)
		}
	}
}
