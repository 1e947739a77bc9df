package approval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

func openVault(t *testing.T, dir string) *vault.Vault {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// events collects what a Host tells its window.
type events struct {
	added  chan Request
	closed chan string
}

func newEvents() *events {
	return &events{added: make(chan Request, 16), closed: make(chan string, 16)}
}

func (e *events) notify(added []Request, closed []string) {
	for _, r := range added {
		e.added <- r
	}
	for _, id := range closed {
		e.closed <- id
	}
}

func wait[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

type asked struct {
	yes bool
	err error
}

// TestAskWaitsForTheWindow: without a window Ask says so at once; with one (a second
// Vault on the same folder, as another process has), the request reaches the window,
// and the person's answer comes back; a request its asker gives up is withdrawn from
// the window, and nothing is left in the queue.
func TestAskWaitsForTheWindow(t *testing.T) {
	dir := t.TempDir()
	asker, window := openVault(t, dir), openVault(t, dir)
	req := Request{From: "mcp:test client", Library: "demo", Tool: "delete_entities", Args: `{"entity_names":["Welcome"]}`}
	if _, err := Ask(t.Context(), asker.State(), req); !errors.Is(err, ErrNoWindow) {
		t.Fatalf("Ask with no window = %v, want ErrNoWindow", err)
	}

	ev := newEvents()
	h, err := Serve(window.State(), ev.notify)
	if err != nil {
		t.Fatal(err)
	}
	for _, approve := range []bool{true, false} {
		got := make(chan asked, 1)
		go func() {
			yes, err := Ask(t.Context(), asker.State(), req)
			got <- asked{yes, err}
		}()
		r := wait(t, ev.added, "request in the window")
		if r.Tool != "delete_entities" || r.From != "mcp:test client" || r.Library != "demo" || r.Args != req.Args || !validID(r.ID) {
			t.Errorf("the window got %+v", r)
		}
		if w := h.Waiting(); len(w) != 1 || w[0].ID != r.ID {
			t.Errorf("Waiting = %+v", w)
		}
		if err := h.Answer(r.ID, approve); err != nil {
			t.Fatal(err)
		}
		if a := wait(t, got, "answer"); a.err != nil || a.yes != approve {
			t.Errorf("Ask = %v, %v; want %v", a.yes, a.err, approve)
		}
		if id := wait(t, ev.closed, "closed request"); id != r.ID {
			t.Errorf("closed %s, want %s", id, r.ID)
		}
		if err := h.Answer(r.ID, true); !errors.Is(err, ErrNotWaiting) {
			t.Errorf("a second answer = %v, want ErrNotWaiting", err)
		}
	}

	// The asker gives up (the MCP client cancelled): the window hears it.
	ctx, cancel := context.WithCancel(t.Context())
	got := make(chan asked, 1)
	go func() {
		yes, err := Ask(ctx, asker.State(), req)
		got <- asked{yes, err}
	}()
	r := wait(t, ev.added, "request in the window")
	cancel()
	if a := wait(t, got, "Ask to return"); a.yes || !errors.Is(a.err, context.Canceled) {
		t.Errorf("a cancelled Ask = %v, %v", a.yes, a.err)
	}
	if id := wait(t, ev.closed, "withdrawn request"); id != r.ID {
		t.Errorf("withdrawn %s, want %s", id, r.ID)
	}

	// A window killed without closing leaves its lock file, which nobody holds.
	h.stop()
	<-h.done
	h.release()
	if _, err := Ask(t.Context(), asker.State(), req); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Ask after the window died = %v, want ErrNoWindow", err)
	}
	names, err := asker.ListInternal("approvals")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if filepath.Ext(n) == ".json" {
			t.Errorf("left in the queue: %s", n)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", "approvals")); err != nil {
		t.Errorf("the queue's folder: %v", err)
	}
}

// A request file someone else wrote there is not shown unless it is well formed.
func TestHostIgnoresForeignFiles(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	for name, body := range map[string]string{
		"approvals/notanid.request.json":                  `{"id":"notanid","tool":"x"}`,
		"approvals/0123456789abcdef01234567.request.json": `not json`,
		"approvals/fedcba9876543210fedcba98.request.json": `{"id":"0123456789abcdef01234567","tool":"x"}`,
	} {
		if err := v.WriteInternal(name, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	h, err := Serve(v.State(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if w := h.Waiting(); len(w) != 0 {
		t.Errorf("Waiting = %+v", w)
	}
}

// A window that closes (or dies) while a request waits in it: the asker hears at once
// that no window is left to answer, instead of waiting until it gives up.
func TestAskEndsWhenTheWindowCloses(t *testing.T) {
	dir := t.TempDir()
	asker, window := openVault(t, dir), openVault(t, dir)
	ev := newEvents()
	h, err := Serve(window.State(), ev.notify)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan asked, 1)
	go func() {
		yes, err := Ask(t.Context(), asker.State(), Request{From: "mcp:test", Library: "demo", Tool: "delete_entities", Args: `{}`})
		got <- asked{yes, err}
	}()
	wait(t, ev.added, "request in the window")
	h.Close()
	if a := wait(t, got, "Ask to return after the window closed"); a.yes || !errors.Is(a.err, ErrNoWindow) {
		t.Errorf("Ask after the window closed = %v, %v; want ErrNoWindow", a.yes, a.err)
	}
}

// The window is shown the whole call the person approves; a call too long to show is
// refused at once, never shown cut.
func TestAskShowsTheWholeCall(t *testing.T) {
	dir := t.TempDir()
	asker, window := openVault(t, dir), openVault(t, dir)
	ev := newEvents()
	h, err := Serve(window.State(), ev.notify)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	args := `{"code":"` + strings.Repeat("# harmless\\n", 1000) + `delete_entities(entity_names=['Welcome'])"}`
	got := make(chan asked, 1)
	go func() {
		yes, err := Ask(t.Context(), asker.State(), Request{From: "mcp:test", Library: "demo", Tool: "run_starlark", Args: args})
		got <- asked{yes, err}
	}()
	r := wait(t, ev.added, "request in the window")
	if r.Args != args {
		t.Errorf("the window was shown %d of the call's %d bytes", len(r.Args), len(args))
	}
	if err := h.Answer(r.ID, false); err != nil {
		t.Fatal(err)
	}
	wait(t, got, "answer")
	long := Request{From: "mcp:test", Library: "demo", Tool: "run_starlark", Args: strings.Repeat("x", MaxArgs+1)}
	if _, err := Ask(t.Context(), asker.State(), long); !errors.Is(err, ErrTooLong) {
		t.Errorf("Ask with %d bytes of arguments = %v, want ErrTooLong", len(long.Args), err)
	}
	if w := h.Waiting(); len(w) != 0 {
		t.Errorf("a call too long to show waits in the window: %d requests", len(w))
	}
}
