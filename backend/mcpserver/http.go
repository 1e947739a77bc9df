package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
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
// resumable after a dropped connection with Last-Event-ID (an in-memory event store).
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
