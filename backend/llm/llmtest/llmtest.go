// Package llmtest is a local OpenAI-compatible server for tests: it answers each chat
// request with the next scripted reply (a recorded SSE stream or an error status) and
// keeps the requests it received.
package llmtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Body is the response body: SSE lines for a 200, a JSON error otherwise.
	Body string
	// Delay holds the answer back this long (for timeouts).
	Delay time.Duration
	// Hangup closes the connection without answering (a connection error).
	Hangup bool
	// Stall accepts the request and never answers, until the client gives up.
	Stall bool
	// DropAfter, when positive, sends only the first DropAfter bytes of Body and then
	// closes the connection mid-stream (the chunked body is left unterminated).
	DropAfter int
	// ContentType replaces the Content-Type of a 200 answer (text/event-stream).
	ContentType string
	// KeepAlive, when positive, sends an SSE comment line every KeepAlive after Body,
	// forever, until the client gives up.
	KeepAlive time.Duration
	// Generate, when set, writes the body after Body, streaming (for bodies too big
	// to hold); it stops when it returns or the client goes away.
	Generate func(w io.Writer) error
}

// Server replays Replies in order; after the last one it repeats it.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []Reply
	requests []Request
	models   []string
	// forgotten counts the requests ForgetRequests dropped.
	forgotten int

	embedCalls, embedded int
}

// SetModels makes GET /v1/models list ids; before it is called that route answers
// 404, as on servers that list no models.
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	s.models = append([]string{}, ids...)
	s.mu.Unlock()
}

// serveModels answers GET …/models.
func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	models := s.models
	s.mu.Unlock()
	if models == nil {
		http.NotFound(w, nil)
		return
	}
	data := []any{}
	for _, id := range models {
		data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "test"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

// Request is what the server received: the decoded JSON body and the auth header.
type Request struct {
	Body          map[string]any
	Authorization string
}

// New starts a server that answers with replies; it stops when the test ends.
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// URL returns the base URL to give a client (…/v1).
func (s *Server) URL() string { return s.Server.URL + "/v1" }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ForgetRequests drops the requests received so far (a long soak measures its own
// memory and must not count the server's record). The scripted replies keep their
// order: the next request gets the reply its number names.
func (s *Server) ForgetRequests() {
	s.mu.Lock()
	s.forgotten += len(s.requests)
	s.requests = nil
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		s.serveModels(w)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	if strings.HasSuffix(r.URL.Path, "/embeddings") {
		s.embed(w, m)
		return
	}
	s.mu.Lock()
	n := s.forgotten + len(s.requests)
	s.requests = append(s.requests, Request{Body: m, Authorization: r.Header.Get("Authorization")})
	rep := Reply{Status: 500, Body: `{"error":{"message":"no scripted reply"}}`}
	if len(s.replies) > 0 {
		rep = s.replies[min(n, len(s.replies)-1)]
	}
	s.mu.Unlock()
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if rep.Hangup {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	if rep.Stall {
		<-r.Context().Done()
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		io.WriteString(w, rep.Body)
		return
	}
	w.Header().Set("Content-Type", cmp.Or(rep.ContentType, "text/event-stream"))
	rc := http.NewResponseController(w)
	if rep.DropAfter > 0 {
		io.WriteString(w, rep.Body[:min(rep.DropAfter, len(rep.Body))])
		_ = rc.Flush()
		if conn, _, err := rc.Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	io.WriteString(w, rep.Body)
	if rep.Generate != nil {
		_ = rc.Flush()
		if rep.Generate(flusher{w, rc}) != nil {
			return
		}
	}
	for rep.KeepAlive > 0 {
		if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
			return
		}
		select {
		case <-time.After(rep.KeepAlive):
		case <-r.Context().Done():
			return
		}
	}
}

// flusher sends every write to the client at once, so a generated body streams.
type flusher struct {
	w  io.Writer
	rc *http.ResponseController
}

func (f flusher) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if err == nil {
		err = f.rc.Flush()
	}
	return n, err
}

// Chunk returns one chat.completion.chunk SSE event whose delta carries content.
func Chunk(content string) string {
	var b strings.Builder
	chunk(&b, map[string]any{"content": content}, "", 1)
	return b.String()
}

// EmbeddingDims is the length of the vectors the server's /embeddings returns.
const EmbeddingDims = 256

// embed answers /embeddings with deterministic vectors: each word of a text (and
// each Chinese, Japanese or Korean character) adds one to a dimension chosen by its
// hash, so texts sharing words have close vectors, as with a real model.
func (s *Server) embed(w http.ResponseWriter, m map[string]any) {
	var texts []string
	switch in := m["input"].(type) {
	case string:
		texts = []string{in}
	case []any:
		for _, t := range in {
			str, _ := t.(string)
			texts = append(texts, str)
		}
	}
	s.mu.Lock()
	s.embedCalls++
	s.embedded += len(texts)
	s.mu.Unlock()
	model, _ := m["model"].(string)
	data := make([]map[string]any, len(texts))
	for i, t := range texts {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": VectorOf(model, t)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": m["model"]})
}

// ShuffledPrefix starts the names of models whose vectors are Vector's with the
// dimensions permuted: as meaningful within the model, and meaningless beside
// another model's, as two real models' vectors are.
const ShuffledPrefix = "shuffled-"

// VectorOf is the deterministic embedding the server gives text for model.
func VectorOf(model, text string) []float32 {
	v := Vector(text)
	if !strings.HasPrefix(model, ShuffledPrefix) {
		return v
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[(i*7+3)%EmbeddingDims] = x // 7 is prime to 256: a permutation
	}
	return out
}

// Vector is the deterministic embedding the server gives text.
func Vector(text string) []float32 {
	v := make([]float32, EmbeddingDims)
	word := func(w string) {
		h := uint32(2166136261)
		for i := 0; i < len(w); i++ {
			h = (h ^ uint32(w[i])) * 16777619
		}
		v[h%EmbeddingDims]++
	}
	var cur strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 0x2E80:
			word(string(r))
			fallthrough
		case !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			if cur.Len() > 0 {
				word(cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		word(cur.String())
	}
	return v
}

// Embedded returns how many /embeddings calls the server answered and how many texts
// they held.
func (s *Server) Embedded() (calls, texts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedCalls, s.embedded
}

// Error returns an error reply in OpenAI's shape.
func Error(status int, msg string) Reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
	return Reply{Status: status, Body: string(b)}
}

// Text returns a streamed reply of plain text, one chunk per word.
func Text(text string) Reply {
	var b strings.Builder
	for i, w := range strings.SplitAfter(text, " ") {
		chunk(&b, map[string]any{"content": w}, "", i)
	}
	chunk(&b, map[string]any{}, "stop", 1)
	b.WriteString("data: [DONE]\n\n")
	return Reply{Body: b.String()}
}

// Deltas returns a streamed reply made of the given deltas, one chunk each, in order,
// then the end of the reply: the shapes servers send that Text does not, such as
// {"reasoning_content": "..."} or {"reasoning": "..."}, or text cut anywhere.
func Deltas(deltas ...map[string]any) Reply {
	var b strings.Builder
	for i, d := range deltas {
		chunk(&b, d, "", i)
	}
	chunk(&b, map[string]any{}, "stop", 1)
	b.WriteString("data: [DONE]\n\n")
	return Reply{Body: b.String()}
}

// Contents returns the deltas carrying each of texts as content, for Deltas.
func Contents(texts ...string) []map[string]any {
	out := make([]map[string]any, len(texts))
	for i, t := range texts {
		out[i] = map[string]any{"content": t}
	}
	return out
}

// ToolCall returns a streamed reply that calls tool name with args, the arguments
// split into pieces of three characters.
func ToolCall(id, name, args string) Reply {
	var b strings.Builder
	chunk(&b, map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": ""}}}}, "", 0)
	runes := []rune(args)
	for i := 0; i < len(runes); i += 3 {
		piece := string(runes[i:min(i+3, len(runes))])
		chunk(&b, map[string]any{"tool_calls": []any{map[string]any{"index": 0,
			"function": map[string]any{"arguments": piece}}}}, "", 1)
	}
	chunk(&b, map[string]any{}, "tool_calls", 1)
	b.WriteString("data: [DONE]\n\n")
	return Reply{Body: b.String()}
}

// chunk writes one chat.completion.chunk event.
func chunk(b *strings.Builder, delta map[string]any, finish string, i int) {
	if i == 0 {
		delta["role"] = "assistant"
	}
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	raw, _ := json.Marshal(map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "choices": []any{choice}})
	fmt.Fprintf(b, "data: %s\n\n", raw)
}
