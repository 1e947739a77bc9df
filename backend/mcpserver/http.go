package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The transport's two forms over HTTP, chosen per request. The newest protocol
// revision (2026-07-28) is sessionless, and the SDK accepts it over HTTP only on a
// stateless handler; a client of an earlier revision hears of changes only on the
// standalone stream of a session (GET /mcp with its Mcp-Session-Id). So a client that
// opens a session (an initialize request of an earlier revision) gets one, and every
// request carrying that session's id goes to it: its GET stream carries
// notifications/resources/list_changed and notifications/resources/updated,
// resumable after a dropped connection with Last-Event-ID (an in-memory event store);
// a GET without it gets only the notifications the session was not yet sent (see
// writtenEvents).
// Every other request — the 2026-07-28 revision, whose clients hear of changes through
// subscriptions/listen, and clients that do not keep the session id they were given —
// is served stateless, as before. A write to a client that stops reading gives up
// after streamWriteTimeout. At most maxSessions sessions live at once: a new one
// closes the one least recently used (see sessionCap), whose next request is told so.

// sessionIdle is how long a session may go without a request before it is closed.
const sessionIdle = time.Hour

// maxSessions bounds the sessions kept at once: a client that initializes again for
// every request would otherwise pile up sessions, each held for sessionIdle.
var maxSessions = 64

// newestRevision is the first protocol revision that has no sessions.
const newestRevision = "2026-07-28"

// HTTPHandler returns the streamable HTTP handler of the server (to mount at /mcp).
// protect checks the origin of every request (see mcp.StreamableHTTPOptions).
func (s *Server) HTTPHandler(protect *http.CrossOriginProtection) http.Handler {
	get := func(*http.Request) *mcp.Server { return s.mcp }
	events := mcp.NewMemoryEventStore(nil)
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		EventStore: events, SessionTimeout: sessionIdle, CrossOriginProtection: protect})
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless: true, CrossOriginProtection: protect})
	sessions := newSessionCap(s.mcp)
	written := &writtenEvents{server: s.mcp, last: map[string]int{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := newDeadlineWriter(w) // see streamWriteTimeout
		// No deadline is left behind for the next request of a kept-alive connection.
		defer dw.rc.SetWriteDeadline(time.Time{})
		w = dw
		if id := r.Header.Get("Mcp-Session-Id"); id != "" {
			if msg := sessions.use(id); msg != "" {
				http.Error(w, msg, http.StatusNotFound)
				return
			}
			if r.Method == http.MethodGet {
				r, w = written.resume(r, id), written.watch(w, id)
			}
			stateful.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodPost {
			stateful.ServeHTTP(w, r)
			return
		}
		if opensSession(r) {
			stateful.ServeHTTP(w, r)
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				sessions.opened(id)
			}
			return
		}
		stateless.ServeHTTP(w, r)
	})
}

// writtenEvents remembers, per session, the index of the last event written to its
// standalone stream (the GET stream), so that a GET opened without Last-Event-ID
// sends only what the session has not received. The SDK replays such a GET from the
// session's first event: every notification the client heard on an earlier stream,
// again. Events stored while no stream was open (never written) still come.
// Concurrency: safe for concurrent use.
type writtenEvents struct {
	server *mcp.Server
	mu     sync.Mutex
	last   map[string]int // session id -> index of the last event written
}

// resume returns r with a Last-Event-ID naming the last event written to the
// session's stream, when r has none and one was written; otherwise r itself.
func (we *writtenEvents) resume(r *http.Request, session string) *http.Request {
	if len(r.Header.Values("Last-Event-ID")) > 0 {
		return r
	}
	we.mu.Lock()
	last, ok := we.last[session]
	we.mu.Unlock()
	if !ok {
		return r
	}
	r = r.Clone(r.Context())
	r.Header.Set("Last-Event-ID", standaloneEventID(last))
	return r
}

// standaloneEventID is the SDK's id of the event at index i of the standalone stream
// (its stream id is "", and an event id is stream id, "_", index).
func standaloneEventID(i int) string { return "_" + strconv.Itoa(i) }

// watch returns w noting the index of each event of the standalone stream written
// whole to it.
func (we *writtenEvents) watch(w http.ResponseWriter, session string) http.ResponseWriter {
	return eventWatcher{ResponseWriter: w, wrote: func(i int) {
		we.mu.Lock()
		defer we.mu.Unlock()
		if last, ok := we.last[session]; !ok || i > last {
			we.last[session] = i
		}
		if len(we.last) > 2*maxSessions {
			we.forgetClosed()
		}
	}}
}

// forgetClosed drops the sessions the server no longer has; the caller holds mu.
func (we *writtenEvents) forgetClosed() {
	live := map[string]bool{}
	for ss := range we.server.Sessions() {
		live[ss.ID()] = true
	}
	for id := range we.last {
		if !live[id] {
			delete(we.last, id)
		}
	}
}

// eventWatcher passes writes on, and calls wrote with the index of each event of the
// standalone stream written whole (the SDK writes one event per Write: "event: …",
// "id: _N", "data: …").
type eventWatcher struct {
	http.ResponseWriter
	wrote func(index int)
}

func (e eventWatcher) Write(b []byte) (int, error) {
	n, err := e.ResponseWriter.Write(b)
	if err != nil || n != len(b) {
		return n, err
	}
	for rest := b; len(rest) > 0; {
		line, more, _ := bytes.Cut(rest, []byte("\n"))
		if bytes.HasPrefix(line, []byte("data:")) || len(line) == 0 {
			break // the event's header lines are over
		}
		if v, ok := bytes.CutPrefix(line, []byte("id: _")); ok {
			if i, err := strconv.Atoi(string(v)); err == nil && i >= 0 {
				e.wrote(i)
			}
		}
		rest = more
	}
	return n, nil
}

// Unwrap gives http.ResponseController the writer underneath (for flushes and
// deadlines).
func (e eventWatcher) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// maxPeek bounds how much of a request body is read to tell whether it opens a
// session; an initialize request is far smaller.
const maxPeek = 64 << 10

// opensSession reports whether a POST is an initialize request of a revision that has
// sessions. It reads at most maxPeek bytes of the body and puts them back.
func opensSession(r *http.Request) bool {
	if r.Body == nil {
		return false
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, maxPeek))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(head, &msg) != nil || msg.Method != "initialize" {
		return false
	}
	v := msg.Params.ProtocolVersion
	return v != "" && v < newestRevision
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }

// streamWriteTimeout bounds how long one write to a client of a session may block. The
// SDK writes a notification to a session's stream from the goroutine that notifies
// every session (Follow's, for a note's change), and waits for the write: a client that
// keeps its stream open and stops reading (hung, suspended) would hold that goroutine,
// and every later notification to every client, for as long as it stays connected.
// Past the timeout the write fails and the stream ends; what it missed stays in the
// event store, and the client resumes with Last-Event-ID.
var streamWriteTimeout = 30 * time.Second

// deadlineWriter gives each write and flush to a client streamWriteTimeout to finish.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func newDeadlineWriter(w http.ResponseWriter) deadlineWriter {
	return deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w)}
}

func (d deadlineWriter) Write(b []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return d.ResponseWriter.Write(b)
}

// FlushError flushes within the deadline (http.ResponseController.Flush calls it).
func (d deadlineWriter) FlushError() error {
	_ = d.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return d.rc.Flush()
}

// Flush is FlushError for callers that use http.Flusher.
func (d deadlineWriter) Flush() { _ = d.FlushError() }

// Unwrap gives http.ResponseController the writer underneath.
func (d deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
