package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// served opens a fresh copy of the demo vault and serves it over streamable HTTP.
func served(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "demo", Path: dir, Permission: tool.PermWrite}}, workspace.Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Deps{Registry: reg, Libraries: ws, Version: "test"})
	go srv.Follow(t.Context())
	hs := httptest.NewServer(srv.HTTPHandler(nil))
	t.Cleanup(hs.Close)
	return hs, dir
}

// heard counts the notifications a client heard.
type heard struct {
	mu          sync.Mutex
	listChanged int
	updated     []string
	signal      chan struct{}
}

func (h *heard) note(f func()) {
	h.mu.Lock()
	f()
	h.mu.Unlock()
	select {
	case h.signal <- struct{}{}:
	default:
	}
}

// wait waits until ok holds (checked under the lock), or fails after a generous time.
func (h *heard) wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		h.mu.Lock()
		done := ok()
		h.mu.Unlock()
		if done {
			return
		}
		select {
		case <-h.signal:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestNotificationsOverHTTP: a client of streamable HTTP hears that a note it
// subscribed to changed, and that the list of notes changed — only when it did (an
// edit of a listed note is no new list) — and its tool calls are recorded in the
// journey under the name it gave; both a client of 2025-11-25, which keeps a session
// and listens on its GET stream, and one of the sessionless 2026-07-28 revision, which
// listens with subscriptions/listen.
func TestNotificationsOverHTTP(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { notificationsOverHTTP(t, version) })
	}
}

func notificationsOverHTTP(t *testing.T, version string) {
	hs, dir := served(t)
	h := &heard{signal: make(chan struct{}, 1)}
	name := "notify-test-" + version
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { h.note(func() { h.listChanged++ }) },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			h.note(func() { h.updated = append(h.updated, r.Params.URI) })
		},
	})
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s", got)
	}
	if (cs.ID() != "") != (version < newestRevision) {
		t.Errorf("session id %q for revision %s", cs.ID(), version)
	}
	welcome := URI("demo", "Welcome.md")
	if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: welcome}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		f := filepath.Join(dir, "Welcome.md")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, append(b, fmt.Sprintf("\nedit %d\n", i)...), 0o644); err != nil {
			t.Fatal(err)
		}
		h.wait(t, fmt.Sprintf("resources/updated after edit %d", i), func() bool { return len(h.updated) > i })
	}
	if err := os.WriteFile(filepath.Join(dir, "Brand new.md"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.wait(t, "resources/list_changed after a new note", func() bool { return h.listChanged > 0 })
	h.mu.Lock()
	if h.listChanged != 1 || h.updated[0] != welcome {
		t.Errorf("after 3 edits and 1 new note: %d list_changed (want 1), updated %v", h.listChanged, h.updated)
	}
	h.mu.Unlock()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "update_entity", Arguments: map[string]any{"entity_name": "Welcome", "content": "by the test", "mode": "append"}})
	if err != nil || res.IsError {
		t.Fatalf("update_entity: %+v, %v", res, err)
	}
	j, err := os.ReadFile(filepath.Join(dir, "journey.yaml"))
	if err != nil || !bytes.Contains(j, []byte("actor: mcp:"+name)) {
		t.Errorf("the journey does not name the client (%v):\n%s", err, tail(j))
	}
}

func tail(b []byte) []byte { return b[max(0, len(b)-600):] }

// TestStandaloneStreamResumes: the session's GET stream carries a notification with
// an event id; a client that lost the stream and asks again with Last-Event-ID gets
// what it missed.
func TestStandaloneStreamResumes(t *testing.T) {
	hs, dir := served(t)
	post := func(sid, body string) *http.Response {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, hs.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize of 2025-11-25 opened no session (status %s)", res.Status)
	}
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	post(sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":%q}}`, URI("demo", "Welcome.md"))).Body.Close()
	get := func(last string) (*http.Response, *bufio.Reader) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, hs.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET the standalone stream: %v %v", res.Status, err)
		}
		return res, bufio.NewReader(res.Body)
	}
	edit := func(s string) {
		f := filepath.Join(dir, "Welcome.md")
		b, _ := os.ReadFile(f)
		if err := os.WriteFile(f, append(b, s...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// next reads events until one carries a resources/updated notification.
	next := func(r *bufio.Reader) (id string) {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("the stream ended: %v", err)
			}
			if v, ok := strings.CutPrefix(line, "id: "); ok {
				id = strings.TrimSpace(v)
			}
			if strings.HasPrefix(line, "data: ") && strings.Contains(line, "notifications/resources/updated") {
				return id
			}
		}
	}
	stream, r := get("")
	edit("\nfirst\n")
	first := next(r)
	stream.Body.Close() // the connection drops
	if first == "" {
		t.Fatal("the notification carried no event id")
	}
	edit("\nsecond, while no stream was open\n")
	// The missed notification is stored: a GET with Last-Event-ID replays it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		stream, r = get(first)
		done := make(chan string, 1)
		go func() { done <- next(r) }()
		select {
		case id := <-done:
			stream.Body.Close()
			if id == first {
				t.Fatalf("the replay repeated event %s", id)
			}
			return
		case <-time.After(500 * time.Millisecond):
			stream.Body.Close()
			<-done
		}
		if time.Now().After(deadline) {
			t.Fatal("the missed notification was never replayed")
		}
	}
}

// TestStatelessClientsStillServed: a client that does not keep a session (a request
// without Mcp-Session-Id after initialize) is answered statelessly, as before.
func TestStatelessClientsStillServed(t *testing.T) {
	hs, _ := served(t)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, hs.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body bytes.Buffer
	body.ReadFrom(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(body.String(), `"read_entities"`) {
		t.Errorf("tools/list without a session: %s\n%s", res.Status, body.String())
	}
}

// TestResourceURIsRawOrEncoded: a note is read by its URI percent-encoded, as listed,
// or with its characters as they are.
func TestResourceURIsRawOrEncoded(t *testing.T) {
	cs, _, dir := connect(t, tool.PermWrite)
	if err := os.WriteFile(filepath.Join(dir, "Zoë Ada 名前.md"), []byte("# Zoë\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	encoded := URI("demo", "Zoë Ada 名前.md")
	if !strings.Contains(encoded, "%20") || !strings.Contains(encoded, "%C3%AB") {
		t.Fatalf("URI = %s, want it percent-encoded", encoded)
	}
	for _, uri := range []string{encoded, "memotree://demo/Zoë Ada 名前.md", "memotree://demo/Zo%C3%AB Ada 名前.md"} {
		deadline := time.Now().Add(10 * time.Second)
		for {
			rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
			if err == nil && len(rr.Contents) == 1 && rr.Contents[0].Text == "# Zoë\n" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("read %q: %+v, %v", uri, rr, err)
			}
			time.Sleep(20 * time.Millisecond) // the watcher indexes the new note
		}
	}
}
