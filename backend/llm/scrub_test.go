package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

// An endpoint that sends the API key back inside its reply, cut anywhere across the
// stream's chunks, in the answer, the reasoning and a tool call's arguments: the key
// reaches neither the text streamed to the window nor the message kept in the
// history, and the rest of the text is passed on whole and in order.
func TestRepliedKeyIsScrubbed(t *testing.T) {
	k := secretKey
	cut := func(parts ...string) []map[string]any { return llmtest.Contents(parts...) }
	answer := cut("your key is ", k[:3], k[3:10], k[10:], " and again "+k[:len(k)-1], k[len(k)-1:]+".", " s", "k-t")
	deltas := append([]map[string]any{
		{"reasoning_content": "the user's key: " + k[:5]},
		{"reasoning_content": k[5:] + " (do not say it)"},
	}, answer...)
	s := llmtest.New(t, llmtest.Deltas(deltas...), llmtest.ToolCall("c1", "add_entities", `{"content":"`+k+`"}`))
	c := client(t, s.URL())

	var streamed, thought strings.Builder
	m, err := c.Stream(context.Background(), llm.Request{
		Messages:    []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
		OnDelta:     func(s string) { streamed.WriteString(s) },
		OnReasoning: func(s string) { thought.WriteString(s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	const want = "your key is [key] and again [key]. sk-t"
	if streamed.String() != want || m.Content != want {
		t.Errorf("streamed %q, kept %q; want %q for both", streamed.String(), m.Content, want)
	}
	const wantThought = "the user's key: [key] (do not say it)"
	if thought.String() != wantThought || m.Reasoning != wantThought {
		t.Errorf("reasoning streamed %q, kept %q; want %q", thought.String(), m.Reasoning, wantThought)
	}

	m, err = c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil || len(m.ToolCalls) != 1 {
		t.Fatalf("tool call: %+v, %v", m, err)
	}
	if got := m.ToolCalls[0].Arguments; got != `{"content":"[key]"}` {
		t.Errorf("arguments = %q, want the key replaced", got)
	}
}

// A reply that is not streamed (Config.NoStream) is scrubbed the same way.
func TestRepliedKeyIsScrubbedWhole(t *testing.T) {
	body := `{"choices":[{"index":0,"message":{"role":"assistant","content":"it is ` + secretKey + `"},"finish_reason":"stop"}]}`
	s := llmtest.New(t, llmtest.Reply{Body: body, ContentType: "application/json"})
	c, err := llm.New(llm.Config{BaseURL: s.URL(), APIKey: secretKey, Model: "m", NoStream: true, Tries: 1, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var streamed strings.Builder
	m, err := c.Stream(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
		OnDelta:  func(s string) { streamed.WriteString(s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "it is [key]" || streamed.String() != "it is [key]" {
		t.Errorf("kept %q, streamed %q; want the key replaced", m.Content, streamed.String())
	}
}

// The key cut at every place between two chunks, and split over three, is replaced.
func TestRepliedKeyCutAnywhere(t *testing.T) {
	k := secretKey
	var replies []llmtest.Reply
	for i := 1; i < len(k); i++ {
		replies = append(replies, llmtest.Deltas(llmtest.Contents("<"+k[:i], k[i:]+">")...))
		replies = append(replies, llmtest.Deltas(llmtest.Contents("<"+k[:i/2], k[i/2:i], k[i:]+">")...))
	}
	s := llmtest.New(t, replies...)
	c := client(t, s.URL())
	for range replies {
		var streamed strings.Builder
		m, err := c.Stream(context.Background(), llm.Request{
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
			OnDelta:  func(s string) { streamed.WriteString(s) },
		})
		if err != nil || m.Content != "<[key]>" || streamed.String() != "<[key]>" {
			t.Fatalf("kept %q, streamed %q, %v; want <[key]>", m.Content, streamed.String(), err)
		}
	}
}
