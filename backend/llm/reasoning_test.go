package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// askBoth streams a reply and returns it with the answer and the reasoning as the
// callbacks got them.
func askBoth(t *testing.T, c *llm.Client, history ...llm.Message) (llm.Message, string, string) {
	t.Helper()
	var answer, reasoning strings.Builder
	msgs := append(history, llm.Message{Role: llm.RoleUser, Content: "hi"})
	m, err := c.Stream(context.Background(), llm.Request{Messages: msgs,
		OnDelta:     func(s string) { answer.WriteString(s) },
		OnReasoning: func(s string) { reasoning.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	return m, answer.String(), reasoning.String()
}

// TestStreamReasoning checks a reasoning model's reply, as servers stream it over
// real SSE: a <think> block cut anywhere across deltas, reasoning_content, and the
// reasoning field, each kept apart from the answer, streamed apart, and never sent
// back to the model.
func TestStreamReasoning(t *testing.T) {
	tests := []struct {
		name              string
		reply             llmtest.Reply
		answer, reasoning string
	}{
		{"think tags cut across deltas", llmtest.Deltas(llmtest.Contents("<th", "ink>The user gre", "ets me.</thi", "nk>\n\nHello", "!")...), "Hello!", "The user greets me."},
		{"reasoning_content", llmtest.Deltas(map[string]any{"reasoning_content": "Think "}, map[string]any{"reasoning_content": "first."}, map[string]any{"content": "Hello!"}), "Hello!", "Think first."},
		{"reasoning field", llmtest.Deltas(map[string]any{"reasoning": "A \"quoted\" thought: ok."}, map[string]any{"content": `Say "reasoning": no.`}), `Say "reasoning": no.`, `A "quoted" thought: ok.`},
		{"think never closed", llmtest.Deltas(llmtest.Contents("<think>The whole", " reply.")...), "The whole reply.", "The whole reply."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t, tt.reply, llmtest.Text("again"))
			c := client(t, s.URL())
			m, answer, reasoning := askBoth(t, c)
			if m.Content != tt.answer || answer != tt.answer {
				t.Errorf("answer %q (streamed %q), want %q", m.Content, answer, tt.answer)
			}
			wantRe := tt.reasoning
			if strings.Contains(tt.name, "never closed") {
				wantRe = "" // it became the answer
			}
			if m.Reasoning != wantRe || strings.TrimSpace(reasoning) != tt.reasoning {
				t.Errorf("reasoning %q (streamed %q), want %q", m.Reasoning, reasoning, tt.reasoning)
			}
			// The next request carries the answer only.
			askBoth(t, c, llm.Message{Role: llm.RoleUser, Content: "hi"}, m)
			body, _ := json.Marshal(s.Requests()[1].Body)
			if m.Reasoning != "" && strings.Contains(string(body), m.Reasoning) || strings.Contains(string(body), "<think>") {
				t.Errorf("the reasoning was sent back to the model: %s", body)
			}
		})
	}
}

// TestCompleteReasoning checks the same without streaming (--no-stream).
func TestCompleteReasoning(t *testing.T) {
	body := `{"id":"c","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","reasoning":"Count the letters.","content":"<think>Then answer.</think>Three."}}]}`
	s := llmtest.New(t, llmtest.Reply{Body: body, ContentType: "application/json"})
	c, err := llm.New(llm.Config{BaseURL: s.URL(), Model: "m", NoStream: true, Backoff: time.Millisecond, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m, answer, reasoning := askBoth(t, c)
	if m.Content != "Three." || answer != "Three." || m.Reasoning != "Count the letters.Then answer." || reasoning != m.Reasoning {
		t.Errorf("got %+v, streamed %q and %q", m, answer, reasoning)
	}
}
