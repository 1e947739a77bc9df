package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
)

// TestTextToolCall: a model without function calling answers with seed 003's fenced
// TOML [tool_call]; the agent runs it as run_starlark and feeds __result__ back, and a
// failing script's error comes back the same way.
func TestTextToolCall(t *testing.T) {
	reply := "I will add the note.\n\n```toml\n[tool_call]\ntarget = \"add a note\"\ncode = '''\ncreate_entity(entity_name=\"ideas/Scripted\", content=\"made by a script\")\n__result__ = {\"made\": read_entities(entity_names=[\"ideas/Scripted\"])[\"entities\"][0][\"entity_name\"]}\n'''\n```\n"
	failing := "```toml\n[tool_call]\ntarget = \"read a ghost\"\ncode = '''read_entities(entity_names=[\"Ghost\"])'''\n```"
	srv := llmtest.New(t, llmtest.Text(reply), llmtest.Text(failing), llmtest.Text("Done."))
	a, ws := setup(t, srv)
	var tools []string
	a.OnTool = func(name, _ string, res tool.Result) { tools = append(tools, name+":"+string(res.Status)) }
	_, answer, err := a.Turn(context.Background(), nil, "Add a scripted note.")
	if err != nil || answer != "Done." {
		t.Fatalf("answer %q, %v", answer, err)
	}
	if strings.Join(tools, ",") != "run_starlark:success,run_starlark:error" {
		t.Errorf("tools = %v", tools)
	}
	l, _ := ws.Library("")
	if b, _, err := l.Vault().Read("ideas/Scripted.md"); err != nil || !strings.Contains(string(b), "made by a script") {
		t.Errorf("note %q, %v", b, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	fed := lastUserText(t, reqs[1])
	if !strings.Contains(fed, "[tool_result]") || !strings.Contains(fed, `{\"made\":\"ideas/Scripted\"}`) || !strings.Contains(fed, `status = "success"`) {
		t.Errorf("second call's last user message:\n%s", fed)
	}
	fed = lastUserText(t, reqs[2])
	if !strings.Contains(fed, `error_code = "not_found"`) || !strings.Contains(fed, "Ghost") {
		t.Errorf("third call's last user message:\n%s", fed)
	}
}

// lastUser returns the content of the last user message of a model request.
func lastUserText(t *testing.T, r llmtest.Request) string {
	t.Helper()
	b, _ := json.Marshal(r.Body["messages"])
	var msgs []struct{ Role, Content string }
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	return ""
}
