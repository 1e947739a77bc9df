package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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
	"github.com/memotree/memotree/internal/wait"
)

// served opens a fresh copy of the demo vault and serves it over streamable HTTP.
func served(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	hs, dir, _ := servedWith(t)
	return hs, dir
}

// servedWith is served, giving the server too.
func servedWith(t *testing.T) (*httptest.Server, string, *Server) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	srv, _ := newServer(t, []workspace.Spec{{Name: "demo", Path: dir, Permission: tool.PermWrite}}, workspace.Options{Watch: true})
	go srv.Follow(t.Context())
	hs := httptest.NewServer(srv.HTTPHandler(nil))
	t.Cleanup(hs.Close)
	return hs, dir, srv
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
// an event id; a notification sent while the client has no stream open is kept, and a
// GET with Last-Event-ID replays it. The notifications are sent by the test (as Follow
// sends them), each stored before the call returns, so the replay cannot be a live
// delivery in disguise.
func TestStandaloneStreamResumes(t *testing.T) {
	hs, _, srv := servedWith(t)
	welcome := URI("demo", "Welcome.md")
	c := openSession(t, hs.URL, "raw")
	c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":%q}}`, welcome))
	get := c.stream
	// listen reads a stream's events until one carries a resources/updated
	// notification, and sends its id (or why the stream ended).
	type got struct {
		id  string
		err error
	}
	listen := func(stream *http.Response) chan got {
		ch := make(chan got, 1)
		go func() {
			r, id := bufio.NewReader(stream.Body), ""
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					ch <- got{err: fmt.Errorf("the stream ended: %w", err)}
					return
				}
				if v, ok := strings.CutPrefix(line, "id: "); ok {
					id = strings.TrimSpace(v)
				}
				if strings.HasPrefix(line, "data: ") && strings.Contains(line, "notifications/resources/updated") {
					ch <- got{id: id}
					return
				}
			}
		}()
		return ch
	}
	updated := func() {
		if err := srv.mcp.ResourceUpdated(t.Context(), &mcp.ResourceUpdatedNotificationParams{URI: welcome}); err != nil {
			t.Fatal(err)
		}
	}
	stream := get("")
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET the standalone stream: %s", stream.Status)
	}
	// The server may take the stream in a moment after answering the GET; a
	// notification sent before goes to the store only. So one is sent until one comes.
	heard := listen(stream)
	var first string
	for deadline := time.Now().Add(20 * time.Second); first == ""; {
		updated()
		select {
		case g := <-heard:
			if g.err != nil || g.id == "" {
				t.Fatalf("the first notification: id %q, %v", g.id, g.err)
			}
			first = g.id
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("no notification came on the stream in 20 s")
			}
		}
	}
	stream.Body.Close() // the connection drops
	updated()           // while no stream is open: stored
	// The server may not have seen the first stream go yet: ask again until it has.
	wait.Until(t, "GET with Last-Event-ID to be served", func() error {
		stream = get(first)
		if stream.StatusCode == http.StatusOK {
			return nil
		}
		stream.Body.Close()
		return errors.New(stream.Status)
	})
	defer stream.Body.Close()
	select {
	case g := <-listen(stream):
		if g.err != nil {
			t.Fatalf("the missed notification was not replayed: %v", g.err)
		}
		if g.id == first || g.id == "" {
			t.Errorf("the replay gave event %q after %q", g.id, first)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the missed notification was not replayed in 20 s")
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
		wait.Until(t, "the watcher to index the new note, read as "+uri, func() error {
			rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
			if err == nil && len(rr.Contents) == 1 && rr.Contents[0].Text == "# Zoë\n" {
				return nil
			}
			return fmt.Errorf("read %q: %+v, %v", uri, rr, err)
		})
	}
}

// TestAClientThatStopsReadingIsCutOff: a client keeps its session's GET stream open
// and never reads it. Notifications to it fill the connection's buffers; a write that
// cannot go on for streamWriteTimeout fails (the client resumes later with
// Last-Event-ID), so the notifying goroutine — the one that follows the vault for
// every client — never blocks for good.
func TestAClientThatStopsReadingIsCutOff(t *testing.T) {
	defer func(d time.Duration) { streamWriteTimeout = d }(streamWriteTimeout)
	streamWriteTimeout = 200 * time.Millisecond
	srv, _ := newServer(t, []workspace.Spec{{Name: "demo", Path: t.TempDir(), Permission: tool.PermWrite}}, workspace.Options{})
	hs := httptest.NewServer(srv.HTTPHandler(nil))
	t.Cleanup(hs.Close)
	// A resource whose notifications are a megabyte each fills the buffers quickly.
	uri := "memotree://demo/" + strings.Repeat("a", 1<<20) + ".md"
	srv.mcp.AddResource(&mcp.Resource{URI: uri, Name: "big"}, srv.readResource)
	c := openSession(t, hs.URL, "stalled")
	if body := c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":%q}}`, uri)); strings.Contains(body, `"error"`) {
		t.Fatalf("subscribe: %s", body)
	}
	stream := c.stream("")
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET the standalone stream: %s", stream.Status)
	}
	defer stream.Body.Close() // never read
	const updates = 40        // 40 MB: more than the buffers of a loopback connection
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range updates {
			_ = srv.mcp.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("notifying a client that does not read blocked for a minute")
	}
}

// rawSession is a session of the 2025-11-25 revision, spoken in plain HTTP requests.
type rawSession struct {
	t   *testing.T
	url string
	id  string
}

// openSession initializes a session at url under the client name.
func openSession(t *testing.T, url, name string) *rawSession {
	t.Helper()
	c := &rawSession{t: t, url: url}
	res := c.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`, name))
	answer(t, res)
	if c.id = res.Header.Get("Mcp-Session-Id"); c.id == "" {
		t.Fatalf("initialize of 2025-11-25 opened no session (status %s)", res.Status)
	}
	c.call(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// post sends one message of the session (before it has an id, the initialize).
func (c *rawSession) post(body string) *http.Response {
	req, _ := http.NewRequestWithContext(c.t.Context(), http.MethodPost, c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.id != "" {
		req.Header.Set("Mcp-Session-Id", c.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return res
}

// call sends one message and reads its answer whole (a body closed early can cut the
// request short).
func (c *rawSession) call(body string) string { return answer(c.t, c.post(body)) }

// stream opens the session's GET stream, resuming after the event last when given.
func (c *rawSession) stream(last string) *http.Response {
	req, _ := http.NewRequestWithContext(c.t.Context(), http.MethodGet, c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if last != "" {
		req.Header.Set("Last-Event-ID", last)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return res
}

// answer reads a response whole and closes it.
func answer(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
