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
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
)

func TestSessionsSaveResumeAndList(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "read_manual", `{}`),
		llmtest.Text("First answer."),
		llmtest.Text("Second answer."))
	a, ws := setup(t, srv)
	clock := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	a.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	l, _ := ws.Library("")
	ss := agent.NewSessions(l.State())
	s := agent.NewSession(clock)
	if _, err := a.TurnIn(context.Background(), ss, s, "What is in the manual?"); err != nil {
		t.Fatal(err)
	}
	// The file is where the design says, and parses.
	path := filepath.Join(l.Vault().Dir(), ".memotree", "sessions", s.ID+".json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk agent.Session
	if err := json.Unmarshal(raw, &onDisk); err != nil || len(onDisk.Messages) != 4 {
		t.Fatalf("session file: %d messages, %v", len(onDisk.Messages), err)
	}
	for i := 1; i < len(onDisk.Messages); i++ {
		if !onDisk.Messages[i].Time.After(onDisk.Messages[i-1].Time) {
			t.Errorf("message %d not stamped after %d: %v", i, i-1, onDisk.Messages)
		}
	}
	if onDisk.Title != "What is in the manual?" {
		t.Errorf("title = %q", onDisk.Title)
	}

	// Resume: a new agent loads the session and continues it.
	again, err := ss.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.TurnIn(context.Background(), ss, again, "And then?"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Body["messages"].([]any)
	if len(last) != 1+4+1 {
		t.Errorf("resumed call sent %d messages, want system + 4 + prompt", len(last))
	}
	body, _ := json.Marshal(last)
	if strings.Contains(string(body), "2026-11-22T09:30") || strings.Contains(string(body), `"time"`) {
		t.Errorf("the stored timestamps reached the model: %s", body)
	}
	list, err := ss.List()
	if err != nil || len(list) != 1 || list[0].ID != s.ID || list[0].Messages != 6 {
		t.Errorf("list = %+v, %v", list, err)
	}
	if _, err := ss.Load("../etc"); !errors.Is(err, agent.ErrNoSession) {
		t.Errorf("bad id: %v", err)
	}
	if _, err := ss.Load("s-missing"); !errors.Is(err, agent.ErrNoSession) {
		t.Errorf("missing: %v", err)
	}
}

func TestSensoryBlock(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("ok"))
	a, _ := setup(t, srv)
	a.ActiveNote = func() string { return "people/Ada Lovelace" }
	a.PendingChanges = func(context.Context) (int, error) { return 3, nil }
	if _, _, err := a.Turn(context.Background(), nil, "hi"); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[0].Body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	for _, want := range []string{"note open in the window: people/Ada Lovelace", "pending changes (not committed): 3", "</sensory>"} {
		if !strings.Contains(last, want) {
			t.Errorf("sensory lacks %q: %q", want, last)
		}
	}
}

// A memory update reaches the very next model call, in the last user message only.
func TestMemoryUpdateReachesTheNextCall(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("m1", "memory_notebook_replace", `{"old_text":"","new_text":"The person calls Ada 'the Enchantress'."}`),
		llmtest.Text("Noted."))
	a, _ := setup(t, srv)
	if _, _, err := a.Turn(context.Background(), []llm.Message{{Role: llm.RoleUser, Content: "earlier"}, {Role: llm.RoleAssistant, Content: "ok"}}, "Remember what I call Ada."); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Body["messages"].([]any)
	for i, m := range msgs {
		mm := m.(map[string]any)
		content, _ := mm["content"].(string)
		has := strings.Contains(content, "the Enchantress")
		isLastUser := mm["role"] == "user" && i == lastUser(msgs)
		if isLastUser && !has {
			t.Errorf("the last user message lacks the new memory: %q", content)
		}
		if !isLastUser && has && mm["role"] != "tool" && mm["role"] != "assistant" {
			t.Errorf("message %d (%v) carries the memory too", i, mm["role"])
		}
	}
}

func lastUser(msgs []any) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].(map[string]any)["role"] == "user" {
			return i
		}
	}
	return -1
}
