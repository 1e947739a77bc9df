package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// TestSystemPromptAndReasoning checks seed 004's system prompt and a reasoning
// model's thinking in a turn: the prompt is kept with the session and reaches the
// model after MemoTree's instruction; the reasoning streams apart, is stored apart,
// and never goes back to the model as answer text.
func TestSystemPromptAndReasoning(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Deltas(llmtest.Contents("<think>The person wants", " brevity.</th", "ink>Short answer.")...),
		llmtest.Deltas(map[string]any{"reasoning_content": "Again brief."}, map[string]any{"content": "Yes."}))
	a, ws := setup(t, srv)
	l, _ := ws.Library("")
	ss := agent.NewSessions(l.State())
	s := agent.NewSession(time.Now())
	if err := s.SetSystem("  You are a terse technical writer.  "); err != nil {
		t.Fatal(err)
	}
	var answer, thought strings.Builder
	a.OnDelta = func(x string) { answer.WriteString(x) }
	a.OnReasoning = func(x string) { thought.WriteString(x) }
	got, err := a.TurnIn(context.Background(), ss, s, "Explain REST.")
	if err != nil {
		t.Fatal(err)
	}
	if got != "Short answer." || answer.String() != "Short answer." || thought.String() != "The person wants brevity." {
		t.Errorf("answer %q streamed %q, thought %q", got, answer.String(), thought.String())
	}
	sys := srv.Requests()[0].Body["messages"].([]any)[0].(map[string]any)["content"].(string)
	if i, j := strings.Index(sys, agent.SystemInstruction), strings.Index(sys, "You are a terse technical writer."); i != 0 || j < len(agent.SystemInstruction) {
		t.Errorf("the system prompt is not after MemoTree's instruction:\n%s", sys)
	}
	again, err := ss.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.System != "You are a terse technical writer." {
		t.Errorf("the session lost its system prompt: %q", again.System)
	}
	rec := again.Messages[len(again.Messages)-1]
	if rec.Content != "Short answer." || rec.Reasoning != "The person wants brevity." {
		t.Errorf("stored reply: %+v", rec)
	}
	if _, err := a.TurnIn(context.Background(), ss, again, "More?"); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(srv.Requests()[1].Body)
	if strings.Contains(string(body), "brevity") || strings.Contains(string(body), "<think>") {
		t.Errorf("the reasoning went back to the model: %s", body)
	}
	raw, _ := os.ReadFile(filepath.Join(l.Vault().Dir(), ".memotree", "sessions", s.ID+".json"))
	if !strings.Contains(string(raw), `"reasoning": "Again brief."`) || !strings.Contains(string(raw), `"system": "You are a terse technical writer."`) {
		t.Errorf("session file:\n%s", raw)
	}
}

func TestSetSystemBadInput(t *testing.T) {
	s := agent.NewSession(time.Now())
	if err := s.SetSystem("Be kind."); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want error
	}{
		{"", agent.ErrEmptySystem},
		{" \n\t ", agent.ErrEmptySystem},
		{strings.Repeat("x", 100<<10), agent.ErrLongSystem},
	} {
		if err := s.SetSystem(tc.text); !errors.Is(err, tc.want) {
			t.Errorf("SetSystem(%d bytes) = %v, want %v", len(tc.text), err, tc.want)
		}
		if s.System != "Be kind." {
			t.Errorf("a refused prompt replaced the old one: %q", s.System)
		}
	}
	if err := s.SetSystem(strings.Repeat("长", agent.MaxSystemPrompt/3)); err != nil {
		t.Errorf("a prompt at the limit: %v", err)
	}
}
