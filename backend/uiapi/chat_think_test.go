package uiapi

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// TestChatReasoningApart checks that the window gets a reasoning model's thinking as
// deltas marked reasoning, before the answer and apart from it, and that the saved
// session keeps it beside the answer, not in it.
func TestChatReasoningApart(t *testing.T) {
	srv := llmtest.New(t, llmtest.Deltas(append(
		[]map[string]any{{"reasoning_content": "Check the "}, {"reasoning_content": "vault first."}},
		llmtest.Contents("<think>And be brief.</think>", "Ada wrote the first program.")...)...))
	f := newChatFixture(t, srv)
	turn, err := f.api.ChatSend(ChatSendInput{Prompt: "Who was Ada?"})
	if err != nil {
		t.Fatal(err)
	}
	var thought, answer strings.Builder
	order := ""
	for _, e := range f.until(t, event.ChatDone) {
		if d, ok := e.Data.(event.ChatDeltaEvent); ok {
			if d.Reasoning {
				thought.WriteString(d.Text)
				order += "r"
			} else {
				answer.WriteString(d.Text)
				order += "a"
			}
		}
	}
	if thought.String() != "Check the vault first.And be brief." || answer.String() != "Ada wrote the first program." || !strings.HasPrefix(order, "r") || strings.Contains(order, "ar") {
		t.Errorf("reasoning %q, answer %q, order %q", thought.String(), answer.String(), order)
	}
	view, err := f.api.ChatSession(turn.Session)
	if err != nil {
		t.Fatal(err)
	}
	last := view.Messages[len(view.Messages)-1]
	if last.Content != "Ada wrote the first program." || last.Reasoning != "Check the vault first.And be brief." {
		t.Errorf("saved reply: %+v", last)
	}
}

// TestChatOutKeepsKindsApart checks that the live log merges deltas of one kind only.
func TestChatOutKeepsKindsApart(t *testing.T) {
	o := newChatOut(event.NewBus(), "s1", "t1")
	o.reasoning("Let me ")
	o.reasoning("see.")
	o.delta("Hi")
	o.flush()
	log := o.snapshot()
	if len(log) != 2 {
		t.Fatalf("log = %+v", log)
	}
	if d := log[0].Data.(event.ChatDeltaEvent); d.Text != "Let me see." || !d.Reasoning || d.Seq != 1 {
		t.Errorf("reasoning delta = %+v", d)
	}
	if d := log[1].Data.(event.ChatDeltaEvent); d.Text != "Hi" || d.Reasoning || d.Seq != 2 {
		t.Errorf("answer delta = %+v", d)
	}
}
