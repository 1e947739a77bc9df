package agent

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memotree/memotree/backend/llm"
)

// convo builds a history from a compact script: "u" user, "a" assistant, "c" an
// assistant message with one tool call, "t" its tool result; each with a body of n
// words so that every message costs about the same.
func convo(script string, words int) []llm.Message {
	body := strings.Repeat("lorem ", words)
	var out []llm.Message
	for i, r := range script {
		tag := string(r) + string(rune('0'+i%10))
		switch r {
		case 'u':
			out = append(out, llm.Message{Role: llm.RoleUser, Content: tag + " " + body})
		case 'a':
			out = append(out, llm.Message{Role: llm.RoleAssistant, Content: tag + " " + body})
		case 'c':
			out = append(out, llm.Message{Role: llm.RoleAssistant, Content: tag, ToolCalls: []llm.ToolCall{{ID: "c" + tag, Name: "read_manual", Arguments: "{}"}}})
		case 't':
			out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: "c" + out[len(out)-1].Content, Content: tag + " " + body})
		}
	}
	return out
}

func roles(ms []llm.Message) string {
	var b strings.Builder
	for _, m := range ms {
		switch {
		case m.Role == llm.RoleUser:
			b.WriteByte('u')
		case m.Role == llm.RoleTool:
			b.WriteByte('t')
		case len(m.ToolCalls) > 0:
			b.WriteByte('c')
		default:
			b.WriteByte('a')
		}
	}
	return b.String()
}

func TestTrim(t *testing.T) {
	var c tokenCounter
	per := c.message(convo("u", 100)[0]) // about the cost of one message with a body
	tests := []struct {
		name   string
		script string
		budget int
		want   string
	}{
		{"fits", "uauaua", 100 * per, "uauaua"},
		{"oldest exchange goes", "uauaua", 5 * per, "uaua"},
		{"never a result without its call", "uctauctaua", 5 * per, "ua"},
		{"exchanges with calls go whole", "uctauctaua", 8 * per, "uctaua"},
		{"last exchange alone too long: its oldest rounds go", "uctctct", 3 * per, "uct"},
		{"last exchange kept whole when it fits", "uauctct", 4*per + 20, "uctct"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hist := convo(tc.script, 100)
			got := c.trim(hist, tc.budget)
			if diff := cmp.Diff(tc.want, roles(got)); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			// Every kept call has its result and every result its call.
			calls := map[string]bool{}
			for _, m := range got {
				for _, tc := range m.ToolCalls {
					calls[tc.ID] = true
				}
				if m.Role == llm.RoleTool && !calls[m.ToolCallID] {
					t.Errorf("result %s kept without its call", m.ToolCallID)
				}
			}
			if got[len(got)-1].Content != hist[len(hist)-1].Content {
				t.Error("the newest message was dropped")
			}
		})
	}
}
