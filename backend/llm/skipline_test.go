package llm_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// syncBuffer is a bytes.Buffer a logger can write to from the client's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStreamSkipsBadLine: one data line that is not JSON in the middle of a stream is
// skipped with a warning in the log (seed 004), and the reply — streamed text or tool
// calls — arrives whole; a stream with nothing valid in it still fails.
func TestStreamSkipsBadLine(t *testing.T) {
	tests := []struct {
		file     string
		content  string
		calls    []llm.ToolCall
		failWith error
	}{
		{file: "bad_line_text.txt", content: "Hello, world"},
		{file: "bad_line_tools.txt", calls: []llm.ToolCall{
			{ID: "call_1", Name: "read_entities", Arguments: `{"entity_names":["Welcome"]}`},
			{ID: "call_2", Name: "search", Arguments: `{"query":"ada"}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s := llmtest.New(t, recorded(t, tt.file))
			var log syncBuffer
			c, err := llm.New(llm.Config{BaseURL: s.URL(), APIKey: secretKey, Model: "test-model",
				Backoff: time.Millisecond, Timeout: 5 * time.Second, Log: slog.New(slog.NewTextHandler(&log, nil))})
			if err != nil {
				t.Fatal(err)
			}
			m, streamed, err := ask(t, c)
			if err != nil {
				t.Fatalf("a stream with one bad line failed: %v", err)
			}
			if m.Content != tt.content || streamed != tt.content {
				t.Errorf("content %q, streamed %q, want %q", m.Content, streamed, tt.content)
			}
			if d := cmp.Diff(tt.calls, m.ToolCalls); d != "" {
				t.Errorf("tool calls (-want +got):\n%s", d)
			}
			if got := log.String(); !strings.Contains(got, "level=WARN") || !strings.Contains(got, "not JSON") || !strings.Contains(got, "{not json") {
				t.Errorf("log = %q, want a warning quoting the skipped line", got)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestStreamOnlyBadLines: a stream of which no line is a JSON chunk is an error that
// quotes the first line, and one that ends unfinished after skipped lines says both.
func TestStreamOnlyBadLines(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		want  []error
		words []string
	}{
		{"nothing valid", "data: {not json\n\ndata: ###\n\ndata: [DONE]\n\n", []error{llm.ErrMalformed},
			[]string{"none of the 2 data lines", `"{not json"`}},
		{"unfinished", `data: {"choices":[{"index":0,"delta":{"content":"x"}}]}` + "\n\ndata: ###\n\n", []error{llm.ErrMalformed, llm.ErrIncomplete},
			[]string{"cut off", "1 data line", `"###"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, llmtest.Reply{Body: tt.body})
			c, err := llm.New(llm.Config{BaseURL: s.URL(), Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second,
				Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Errorf("err = %v, want %v", err, w)
				}
			}
			for _, w := range tt.words {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want it to say %q", err, w)
				}
			}
		})
	}
}
