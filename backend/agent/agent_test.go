package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// setup opens a copy of the demo vault and an agent talking to srv.
func setup(t *testing.T, srv *llmtest.Server) (*agent.Agent, *workspace.Workspace) {
	t.Helper()
	return setupPerm(t, srv, tool.PermWrite)
}

// setupPerm is setup with the agent's permission in the library.
func setupPerm(t *testing.T, srv *llmtest.Server, perm tool.Permission) (*agent.Agent, *workspace.Workspace) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ws, err := workspace.Open(ctx, []workspace.Spec{{Name: "demo", Path: dir, Permission: perm}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: "k", Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// The agent every face makes: the workspace's registry, memory and approvals
	// (nobody to ask until a test sets Approval.Ask).
	a, err := ws.Agent(model, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Now = func() time.Time { return time.Date(2026, 11, 22, 9, 30, 0, 0, time.FixedZone("CST", 8*3600)) }
	a.Memory = func(context.Context) (string, error) {
		l, _ := ws.Library("")
		b, _, err := l.Vault().Read("memory.md")
		return string(b), err
	}
	return a, ws
}

func TestTurnCreatesAndRelates(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","entity_type":"person","content":"Mathematician."}`),
		llmtest.ToolCall("call_2", "create_relations", `{"relations":[{"from":"people/Mary Somerville","to":"Ada Lovelace","type":"mentor of"}]}`),
		llmtest.Text("Done: Mary Somerville is in the vault."))
	a, ws := setup(t, srv)
	var tools []string
	a.OnTool = func(name, _ string, res tool.Result) { tools = append(tools, name+":"+string(res.Status)) }
	a.Session = "s-test"
	hist, answer, err := a.Turn(context.Background(), nil, "Add Mary Somerville, Ada's mentor.")
	if err != nil {
		t.Fatal(err)
	}
	if answer != "Done: Mary Somerville is in the vault." {
		t.Errorf("answer = %q", answer)
	}
	if strings.Join(tools, ",") != "create_entity:success,create_relations:success" {
		t.Errorf("tools = %v", tools)
	}
	l, _ := ws.Library("")
	b, _, err := l.Vault().Read("people/Mary Somerville.md")
	if err != nil || !strings.Contains(string(b), "mentor of") || !strings.Contains(string(b), "Mathematician.") {
		t.Errorf("note = %q, %v", b, err)
	}
	entries, _, err := l.Vault().Journey()
	if err != nil {
		t.Fatal(err)
	}
	turns := map[string]bool{}
	writes := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Actor, "agent") {
			writes++
			turns[e.Turn] = true
			if e.Session != "s-test" || !strings.HasPrefix(e.Turn, "t-") || e.Actor != "agent@"+e.Turn {
				t.Errorf("journey entry without its change set: %+v", e)
			}
		}
	}
	if len(turns) != 1 || writes < 2 {
		t.Errorf("%d agent writes in %d turns, want one turn: %v", writes, len(turns), turns)
	}
	checkHistory(t, hist, 6)
	checkInjection(t, srv.Requests())
}

// checkHistory asserts the stored history has n messages, no injection, and a tool
// message for every tool call.
func checkHistory(t *testing.T, hist []llm.Message, n int) {
	t.Helper()
	if len(hist) != n {
		t.Errorf("history has %d messages, want %d: %+v", len(hist), n, hist)
	}
	answered := map[string]bool{}
	for _, m := range hist {
		if strings.Contains(m.Content, "<memory_notebook>") || strings.Contains(m.Content, "<sensory>") {
			t.Errorf("the stored history carries an injection: %q", m.Content)
		}
		if m.Role == llm.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	for _, m := range hist {
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				t.Errorf("tool call %s has no result", c.ID)
			}
		}
	}
}

// checkInjection asserts that the second request's last user message, and only it,
// carries the memory notebook and the time.
func checkInjection(t *testing.T, reqs []llmtest.Request) {
	t.Helper()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	msgs := reqs[1].Body["messages"].([]any)
	// The manual's own text, read through read_manual's typed output, not a stand-in.
	if sys := msgs[0].(map[string]any); sys["role"] != "system" || !strings.Contains(sys["content"].(string), "<manual>\n---\nentity type: manual") ||
		!strings.Contains(sys["content"].(string), "You are helping a person keep a research notebook") {
		t.Errorf("first message lacks the manual: %v", sys)
	}
	var users []string
	for _, m := range msgs {
		if mm := m.(map[string]any); mm["role"] == "user" {
			users = append(users, mm["content"].(string))
		}
	}
	last := users[len(users)-1]
	if !strings.Contains(last, "<memory_notebook>") || !strings.Contains(last, "entity type: memory") ||
		!strings.Contains(last, "2026-11-22 09:30:00 CST (+08:00)") {
		t.Errorf("last user message lacks the notebook or the time: %q", last)
	}
	if tools := reqs[1].Body["tools"].([]any); len(tools) < 5 {
		t.Errorf("only %d tools declared", len(tools))
	}
}

func TestStopLeavesConsistentHistory(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Nobody"}`),
		llmtest.Text("never"))
	a, ws := setup(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	a.OnDelta = func(string) {}
	// Stop as soon as the model has replied, before the tool runs.
	a.Model = stopAfter{a.Model, cancel}
	hist, _, err := a.Turn(ctx, nil, "make nobody")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	checkHistory(t, hist, 3)
	if !strings.Contains(hist[2].Content, "stopped") {
		t.Errorf("tool result = %q, want stopped", hist[2].Content)
	}
	l, _ := ws.Library("")
	if _, _, err := l.Vault().Read("people/Nobody.md"); err == nil {
		t.Error("the stopped call wrote its note")
	}
}

func TestCutStreamKeepsHistory(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Body: `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"create_entity","arguments":"{\"ent"}}]}}]}` + "\n\n"})
	a, _ := setup(t, srv)
	hist, _, err := a.Turn(context.Background(), nil, "go")
	if !errors.Is(err, llm.ErrIncomplete) {
		t.Errorf("err = %v", err)
	}
	checkHistory(t, hist, 1)
}

func TestRoundLimit(t *testing.T) {
	srv := llmtest.New(t, llmtest.ToolCall("c", "read_manual", `{}`))
	a, _ := setup(t, srv)
	a.MaxRounds = 2
	hist, _, err := a.Turn(context.Background(), nil, "loop")
	if !errors.Is(err, agent.ErrRoundLimit) {
		t.Errorf("err = %v", err)
	}
	checkHistory(t, hist, 5)
}

// stopAfter cancels the turn once the model has answered.
type stopAfter struct {
	agent.Model
	cancel context.CancelFunc
}

func (s stopAfter) Stream(ctx context.Context, req llm.Request) (llm.Message, error) {
	m, err := s.Model.Stream(ctx, req)
	s.cancel()
	return m, err
}

func TestParallelReadsAndFailuresFeedBack(t *testing.T) {
	par, err := os.ReadFile("../llm/testdata/tool_parallel.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Reply{Body: string(par)},
		llmtest.ToolCall("bad", "no_such_tool", `{}`),
		llmtest.Text("ok"))
	a, _ := setup(t, srv)
	hist, answer, err := a.Turn(context.Background(), nil, "look around")
	if err != nil || answer != "ok" {
		t.Fatalf("answer %q, err %v", answer, err)
	}
	checkHistory(t, hist, 7)
	if hist[2].ToolCallID != "call_1" || hist[3].ToolCallID != "call_2" {
		t.Errorf("tool results out of order: %+v", hist[2:4])
	}
	if !strings.Contains(hist[5].Content, "status: error") || !strings.Contains(hist[5].Content, "no_such_tool") {
		t.Errorf("unknown tool result = %q", hist[5].Content)
	}
	// The results went back to the model as tool messages.
	msgs := srv.Requests()[1].Body["messages"].([]any)
	if m := msgs[len(msgs)-1].(map[string]any); m["role"] != "tool" || m["tool_call_id"] != "call_2" {
		t.Errorf("last message of request 2: %v", m)
	}
}
