package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm/llmtest"
)

// TestContextCarriesTheCanvas checks that every model call sees the rendered view,
// and that an expansion made in one round is in the next round's context.
func TestContextCarriesTheCanvas(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "expand_node", `{"entity_name":"Ada Lovelace","level":"summary"}`),
		llmtest.Text("Ada is on the canvas."))
	a, _ := setup(t, srv)
	if _, _, err := a.Turn(context.Background(), nil, "Look at Ada."); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	system := func(i int) string {
		return reqs[i].Body["messages"].([]any)[0].(map[string]any)["content"].(string)
	}
	first, second := system(0), system(1)
	for _, s := range []string{first, second} {
		if !strings.Contains(s, "<canvas>") || !strings.Contains(s, `Canvas "default" of library "demo"`) || !strings.Contains(s, "+ people/ 7 notes") {
			t.Fatalf("the system message lacks the canvas:\n%s", s)
		}
	}
	if strings.Contains(first, "· people/Ada Lovelace [summary]") || !strings.Contains(second, "· people/Ada Lovelace [summary]") {
		t.Errorf("the expansion did not reach the next call's canvas:\n%s", second)
	}
}
