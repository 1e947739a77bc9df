package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// A faulty endpoint in the middle of a turn: the turn ends, in bounded time, with an
// error a person can read; the saved session has every tool call with its result and
// nothing of the broken reply; what the tools did before stays done.
func TestFaultyEndpointInATurn(t *testing.T) {
	create := llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Emmy Noether","content":"Algebraist."}`)
	answer := llmtest.Text("Emmy Noether is in the vault now.")
	tests := []struct {
		name    string
		replies []llmtest.Reply
		want    error
		words   string
		stored  int  // messages in the saved session
		created bool // the first round's tool call ran
	}{
		{"drops mid-answer", []llmtest.Reply{create, {Body: answer.Body, DropAfter: strings.Index(answer.Body, "vault")}},
			llm.ErrIncomplete, "connection dropped", 3, true},
		{"never answers", []llmtest.Reply{create, {Stall: true}}, llm.ErrTimeout, "no complete reply", 3, true},
		{"endless keep-alive", []llmtest.Reply{{KeepAlive: 5 * time.Millisecond}}, llm.ErrTimeout, "no complete reply", 1, false},
		{"HTML with 200", []llmtest.Reply{{ContentType: "text/html", Body: "<html><title>502 Bad Gateway</title></html>\n"}},
			llm.ErrMalformed, "502 Bad Gateway", 1, false},
		{"garbage data", []llmtest.Reply{create, {Body: "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\ndata: ###\n\n"}},
			llm.ErrMalformed, "OpenAI-compatible", 3, true},
		{"empty 200", []llmtest.Reply{{}}, llm.ErrMalformed, "empty body", 1, false},
		{"too large", []llmtest.Reply{{Body: llmtest.Chunk(strings.Repeat("z", 70_000))}}, llm.ErrTooLarge, "too large", 1, false},
		{"cut mid tool call", []llmtest.Reply{create, {Body: create.Body[:len(create.Body)/2]}}, llm.ErrIncomplete, "cut off", 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.replies...)
			a, ws := setup(t, srv)
			// A short timeout where the endpoint never finishes; elsewhere one a loaded
			// machine cannot miss, so only the fault under test ends the turn.
			timeout := 10 * time.Second
			if tt.want == llm.ErrTimeout {
				timeout = 500 * time.Millisecond
			}
			model, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Backoff: time.Millisecond,
				Timeout: timeout, MaxReplyBytes: 50_000})
			if err != nil {
				t.Fatal(err)
			}
			a.Model = model
			l, _ := ws.Library("")
			ss := agent.NewSessions(l.State())
			s := agent.NewSession(time.Now())
			done := make(chan error, 1)
			go func() { _, err := a.TurnIn(context.Background(), ss, s, "Add Emmy Noether."); done <- err }()
			select {
			case err = <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("the turn hangs")
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("err = %v, want %v mentioning %q", err, tt.want, tt.words)
			}
			saved, err := ss.Load(s.ID)
			if err != nil {
				t.Fatal(err)
			}
			hist := saved.History()
			checkHistory(t, hist, tt.stored)
			for _, m := range hist {
				if m.Role == llm.RoleAssistant && m.Content != "" {
					t.Errorf("a broken reply was kept: %q", m.Content)
				}
			}
			_, _, rerr := l.Vault().Read("people/Emmy Noether.md")
			if (rerr == nil) != tt.created {
				t.Errorf("note created = %v, want %v", rerr == nil, tt.created)
			}
		})
	}
}

// Tool-call arguments that are not JSON: the tool answers invalid_arguments, the
// model reads that and the turn goes on; the endpoint gets the call back as {}.
func TestInvalidToolArgumentsFeedBack(t *testing.T) {
	srv := llmtest.New(t, llmtest.ToolCall("call_1", "create_entity", `{"entity_name": "Broken`), llmtest.Text("Sorry, fixed."))
	a, ws := setup(t, srv)
	hist, answer, err := a.Turn(context.Background(), nil, "make a note")
	if err != nil || answer != "Sorry, fixed." {
		t.Fatalf("answer %q, err %v", answer, err)
	}
	checkHistory(t, hist, 4)
	if !strings.Contains(hist[2].Content, "invalid_arguments") {
		t.Errorf("tool result = %q", hist[2].Content)
	}
	msgs := srv.Requests()[1].Body["messages"].([]any)
	for _, m := range msgs {
		mm := m.(map[string]any)
		if calls, ok := mm["tool_calls"].([]any); ok {
			if args := calls[0].(map[string]any)["function"].(map[string]any)["arguments"]; args != "{}" {
				t.Errorf("arguments sent back = %v", args)
			}
		}
	}
	l, _ := ws.Library("")
	if _, _, err := l.Vault().Read("Broken.md"); err == nil {
		t.Error("a call with broken arguments wrote a note")
	}
}
