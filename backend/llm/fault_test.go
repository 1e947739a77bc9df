package llm_test

import (
	"cmp"
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// faultClient is a client with a short timeout, so that a hanging endpoint ends the
// test quickly, and a reply cap of capBytes (0: the default).
func faultClient(t *testing.T, url string, timeout time.Duration, capBytes int) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: url, APIKey: secretKey, Model: "m", Backoff: time.Millisecond,
		Timeout: timeout, MaxReplyBytes: capBytes})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// within fails the test if f runs longer than d: a faulty endpoint must never hang.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still waiting after %v", d)
	}
}

// deltas writes n chat chunks of size bytes of text each, counting what it sent.
func deltas(n, size int, sent *atomic.Int64) func(w io.Writer) error {
	return func(w io.Writer) error {
		ev := llmtest.Chunk(strings.Repeat("x", size))
		for range n {
			k, err := io.WriteString(w, ev)
			sent.Add(int64(k))
			if err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
		return err
	}
}

func TestFaultyEndpoint(t *testing.T) {
	text := llmtest.Text("one two three four five six")
	var sentMany, sentHuge atomic.Int64
	huge := func(w io.Writer) error {
		// One SSE line of 80 MB: a single delta nobody should hold.
		if _, err := io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"`); err != nil {
			return err
		}
		block := strings.Repeat("y", 64<<10)
		for range 1280 {
			k, err := io.WriteString(w, block)
			sentHuge.Add(int64(k))
			if err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, "\"}}]}\n\n")
		return err
	}
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		timeout  time.Duration
		want     error
		words    string
		streamed string // the text OnDelta received, exactly ("*": any prefix of the reply)
		tries    int
	}{
		{name: "accepts and never answers", replies: []llmtest.Reply{{Stall: true}}, timeout: 300 * time.Millisecond,
			want: llm.ErrTimeout, words: "longer timeout", tries: 1},
		{name: "drops mid-stream after text", replies: []llmtest.Reply{{Body: text.Body, DropAfter: strings.Index(text.Body, "three")}, text},
			want: llm.ErrIncomplete, words: "connection", streamed: "one two ", tries: 1},
		{name: "drops before any text, then answers", replies: []llmtest.Reply{{Body: text.Body, DropAfter: 20}, text},
			streamed: "one two three four five six", tries: 2},
		{name: "non-JSON data", replies: []llmtest.Reply{{Body: "data: <html>oops</html>\n\n"}}, want: llm.ErrMalformed, words: "OpenAI-compatible", tries: 1},
		{name: "HTML page with 200", replies: []llmtest.Reply{{ContentType: "text/html",
			Body: "<!DOCTYPE html>\n<html><head><title>Proxy login</title></head>\n<body>Sign in</body></html>\n"}},
			want: llm.ErrMalformed, words: "Proxy login", tries: 1},
		{name: "truncated JSON chunk", replies: []llmtest.Reply{{Body: `data: {"choices":[{"index":0,"delta":{"content":"hel` + "\n\n"}},
			want: llm.ErrMalformed, words: "OpenAI-compatible", tries: 1},
		{name: "200 with an empty body", replies: []llmtest.Reply{{}}, want: llm.ErrMalformed, words: "empty", tries: 1},
		{name: "endless keep-alive comments", replies: []llmtest.Reply{{KeepAlive: time.Millisecond}}, timeout: 400 * time.Millisecond,
			want: llm.ErrTimeout, words: "no complete reply", tries: 1},
		{name: "keep-alive then text", replies: []llmtest.Reply{{Body: strings.Repeat(": ping\n\n", 5000) + text.Body}},
			streamed: "one two three four five six", tries: 1},
		{name: "50 MB of deltas", replies: []llmtest.Reply{{Generate: deltas(50_000, 1000, &sentMany)}}, timeout: time.Minute,
			want: llm.ErrTooLarge, words: "too large", streamed: "*", tries: 1},
		{name: "one 80 MB chunk", replies: []llmtest.Reply{{Generate: huge}}, timeout: time.Minute, want: llm.ErrTooLarge, words: "too large", tries: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.replies...)
			c := faultClient(t, s.URL(), cmp.Or(tt.timeout, 10*time.Second), 0)
			var m llm.Message
			var streamed string
			var err error
			within(t, 90*time.Second, func() { m, streamed, err = ask(t, c) })
			t.Logf("message: %v", err)
			if tt.want == nil {
				if err != nil || m.Content != tt.streamed {
					t.Fatalf("got %q, %v", m.Content, err)
				}
			} else if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("err = %v, want %v mentioning %q", err, tt.want, tt.words)
			}
			if tt.streamed != "*" && streamed != tt.streamed {
				t.Errorf("streamed %q, want %q (no text twice, none invented)", streamed, tt.streamed)
			}
			if got := len(s.Requests()); got != tt.tries {
				t.Errorf("%d requests, want %d", got, tt.tries)
			}
		})
	}
	// The cap stopped the reading: the server could not push its 50 or 80 MB through
	// (32 MiB of body at most, plus what the sockets buffer).
	for what, n := range map[string]int64{"deltas": sentMany.Load(), "chunk": sentHuge.Load()} {
		if n > 45<<20 {
			t.Errorf("the server sent %d MB of %s before the client gave up", n>>20, what)
		}
	}
}

// The cap counts the reply, not the stream's framing: a long answer in many small
// chunks passes while the assembled text stays under the cap.
func TestReplyCap(t *testing.T) {
	var sent atomic.Int64
	s := llmtest.New(t, llmtest.Reply{Generate: deltas(2000, 100, &sent)}, llmtest.Reply{Generate: deltas(2000, 100, &sent)})
	m, _, err := ask(t, faultClient(t, s.URL(), 10*time.Second, 300_000))
	if err != nil || len(m.Content) != 200_000 {
		t.Fatalf("got %d bytes, %v", len(m.Content), err)
	}
	_, _, err = ask(t, faultClient(t, s.URL(), 10*time.Second, 100_000))
	if !errors.Is(err, llm.ErrTooLarge) || !strings.Contains(err.Error(), "100000") {
		t.Errorf("err = %v, want ErrTooLarge naming the cap", err)
	}
}

// A tool call whose arguments are not JSON is kept as the model wrote it (the tool
// answers invalid_arguments), but is sent back to the endpoint as {} so that servers
// which parse the history's arguments do not refuse every later request.
func TestInvalidToolArgumentsGoBackAsObject(t *testing.T) {
	s := llmtest.New(t, llmtest.ToolCall("c1", "search", `{"query": "ada`), text(t))
	c := faultClient(t, s.URL(), 10*time.Second, 0)
	m, _, err := ask(t, c)
	if err != nil || len(m.ToolCalls) != 1 || m.ToolCalls[0].Arguments != `{"query": "ada` {
		t.Fatalf("got %+v, %v", m, err)
	}
	_, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "hi"}, m,
		{Role: llm.RoleTool, ToolCallID: "c1", Content: "status: error"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := s.Requests()[1].Body["messages"].([]any)
	call := msgs[1].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
	if args := call["function"].(map[string]any)["arguments"]; args != "{}" {
		t.Errorf("arguments sent back = %v, want {}", args)
	}
}

func text(t *testing.T) llmtest.Reply { return recorded(t, "text.txt") }

// A whole (non-streamed) reply is capped too: a 40 MB JSON body ends in ErrTooLarge.
func TestWholeReplyCap(t *testing.T) {
	s := llmtest.New(t, llmtest.Reply{Generate: func(w io.Writer) error {
		if _, err := io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"`); err != nil {
			return err
		}
		block := strings.Repeat("w", 64<<10)
		for range 640 {
			if _, err := io.WriteString(w, block); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `"},"finish_reason":"stop"}]}`)
		return err
	}})
	c, err := llm.New(llm.Config{BaseURL: s.URL(), Model: "m", NoStream: true, Tries: 1, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if !errors.Is(err, llm.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
	// Under the body cap but over the reply cap: refused as well.
	s2 := llmtest.New(t, llmtest.Reply{Body: `{"choices":[{"index":0,"message":{"role":"assistant","content":"` + strings.Repeat("v", 2<<20) + `"},"finish_reason":"stop"}]}`})
	c, _ = llm.New(llm.Config{BaseURL: s2.URL(), Model: "m", NoStream: true, Tries: 1, Timeout: time.Minute, MaxReplyBytes: 1 << 20})
	_, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if !errors.Is(err, llm.ErrTooLarge) || !strings.Contains(err.Error(), "1048576") {
		t.Errorf("err = %v, want ErrTooLarge naming the cap", err)
	}
}
