package uiapi_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/internal/wait"
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
	if _, err := approval.Ask(t.Context(), other.State(), req); !errors.Is(err, approval.ErrNoWindow) {
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
		yes, err := approval.Ask(t.Context(), other.State(), req)
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
	if _, err := approval.Ask(t.Context(), other.State(), req); !errors.Is(err, approval.ErrNoWindow) {
		t.Errorf("Ask after the window stopped = %v", err)
	}
}

// TestApprovalsInAFolderNobodyWroteIn: a window on a folder without .memotree serves
// its queue among the user's caches, so that opening the folder writes nothing in
// it, and an asker that opens the vault as the app does (the same outside folder)
// reaches it; after the first write the queue moves into .memotree, where the asker
// then looks. A library opened while the window runs is served too, and one closed
// stops being served with its vault.
func TestApprovalsInAFolderNobodyWroteIn(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Watch: true, OutsideCaches: true, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{})
	asker := func(dir string) *vault.Vault { // as `memotree mcp` opens it
		v, err := vault.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { v.Close() })
		cache, err := workspace.CacheDirFor(dir)
		if err == nil {
			err = v.SetCacheDir(cache)
		}
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	other := asker(dir)
	stop, err := uiapi.ServeApprovals(api)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ch, cancel := ws.Bus().Subscribe(64)
	defer cancel()
	ask := func(v *vault.Vault, req approval.Request, approve bool) {
		t.Helper()
		answered := make(chan error, 1)
		go func() {
			// A library just opened is served once the window hears of it: until
			// then an asker hears that no window is open.
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				yes, err := approval.Ask(t.Context(), v.State(), req)
				if errors.Is(err, approval.ErrNoWindow) && time.Now().Before(deadline) {
					continue
				}
				if err == nil && yes != approve {
					err = errors.New("the asker heard the wrong answer")
				}
				answered <- err
				return
			}
		}()
		got := next(t, ch, event.ApprovalWaiting)
		if got.Library != req.Library {
			t.Errorf("approval:waiting = %+v, want library %s", got, req.Library)
		}
		if err := api.AnswerApproval(got.ID, approve); err != nil {
			t.Fatal(err)
		}
		if err := <-answered; err != nil {
			t.Errorf("Ask in %s: %v", req.Library, err)
		}
	}
	req := approval.Request{From: "mcp:Some Client", Library: "v", Tool: "delete_entities", Args: `{}`}
	ask(other, req, false)
	if _, err := os.Stat(filepath.Join(dir, ".memotree")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("serving and answering the queue wrote in the folder: %v", err)
	}
	if res, err := api.SaveNote("v", "b.md", "# B\n", ""); err != nil || res.Conflict {
		t.Fatalf("the first write: %+v, %v", res, err)
	}
	// The queue follows the write's change event into .memotree.
	wait.For(t, "the queue to move into .memotree after the first write", func() bool {
		names, _ := os.ReadDir(filepath.Join(dir, ".memotree", "approvals"))
		return len(names) > 0
	})
	ask(other, req, true)

	dir2 := t.TempDir()
	writeFiles(t, dir2, map[string]string{"c.md": "# C\n"})
	if _, err := ws.Mount(t.Context(), workspace.Spec{Name: "w", Path: dir2}); err != nil {
		t.Fatal(err)
	}
	other2 := asker(dir2)
	req.Library = "w"
	ask(other2, req, true)
	if err := ws.Unmount("w"); err != nil {
		t.Fatal(err)
	}
	if _, err := approval.Ask(t.Context(), other2.State(), req); !errors.Is(err, approval.ErrNoWindow) {
		t.Errorf("Ask in a closed library = %v", err)
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
