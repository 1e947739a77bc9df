package uiapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// chatFixture is an API on a copy of the demo vault, pointed at srv, with the events
// it publishes.
type chatFixture struct {
	api    *API
	ws     *workspace.Workspace
	events <-chan event.Event
}

func newChatFixture(t *testing.T, srv *llmtest.Server) *chatFixture {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(context.Background(), []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("MEMOTREE_MODEL", "test-model")
	t.Setenv("OPENAI_API_KEY", "sk-window-secret-0042")
	ch, cancel := ws.Bus().Subscribe(1024)
	t.Cleanup(cancel)
	api := NewAPI(ws, Options{Settings: llm.Resolver{Path: filepath.Join(t.TempDir(), "settings.toml")}})
	return &chatFixture{api: api, ws: ws, events: ch}
}

// until collects events until one of topic matches, and returns them all.
func (f *chatFixture) until(t *testing.T, topic event.Topic) []event.Event {
	t.Helper()
	var got []event.Event
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-f.events:
			if strings.HasPrefix(string(e.Topic), "chat:") {
				got = append(got, e)
			}
			if e.Topic == topic {
				return got
			}
		case <-timeout:
			t.Fatalf("no %s event; got %+v", topic, got)
		}
	}
}

func TestChatSendStreamsAndSaves(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","entity_type":"person"}`),
		llmtest.Text("Mary Somerville is in the vault now."))
	f := newChatFixture(t, srv)
	turn, err := f.api.ChatSend(ChatSendInput{Prompt: "Add Mary", Library: "demo", ActiveNote: "people/Ada Lovelace.md"})
	if err != nil {
		t.Fatal(err)
	}
	evs := f.until(t, event.ChatDone)
	var text strings.Builder
	var phases []string
	for _, e := range evs {
		switch d := e.Data.(type) {
		case event.ChatDeltaEvent:
			text.WriteString(d.Text)
		case event.ChatToolEvent:
			phases = append(phases, d.Name+":"+d.Phase+":"+d.Status)
		}
	}
	done := evs[len(evs)-1].Data.(event.ChatDoneEvent)
	if done.Error != "" || done.Turn != turn.Turn || done.Answer != "Mary Somerville is in the vault now." {
		t.Errorf("done = %+v", done)
	}
	if text.String() != done.Answer {
		t.Errorf("streamed %q", text.String())
	}
	if strings.Join(phases, ",") != "create_entity:start:,create_entity:end:success" {
		t.Errorf("tool events: %v", phases)
	}
	view, err := f.api.ChatSession(turn.Session)
	if err != nil || len(view.Messages) != 4 || view.Running != "" {
		t.Fatalf("session: %+v, %v", view, err)
	}
	list, err := f.api.ChatSessions()
	if err != nil || len(list) != 1 || list[0].Title != "Add Mary" {
		t.Errorf("sessions: %+v, %v", list, err)
	}
	body := srv.Requests()[0].Body["messages"].([]any)
	last := body[len(body)-1].(map[string]any)["content"].(string)
	if !strings.Contains(last, "note open in the window: demo: people/Ada Lovelace") {
		t.Errorf("sensory block: %q", last)
	}
	// The system message carries the canvas: the vault's tree, the people folder in it.
	if sys := body[0].(map[string]any)["content"].(string); !strings.Contains(sys, "<canvas>") || !strings.Contains(sys, "people/") {
		t.Errorf("system message without the canvas: %q", sys)
	}
	// The second prompt continues the session.
	if _, err := f.api.ChatSend(ChatSendInput{Session: turn.Session, Prompt: "thanks"}); err != nil {
		t.Fatal(err)
	}
	f.until(t, event.ChatDone)
	if v, _ := f.api.ChatSession(turn.Session); len(v.Messages) != 6 {
		t.Errorf("continued session has %d messages", len(v.Messages))
	}
}

func TestChatApprovalAndStop(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "delete_entities", `{"entity_names":["Welcome"]}`),
		llmtest.Text("Deleted."),
		llmtest.ToolCall("call_2", "delete_entities", `{"entity_names":["meta"]}`))
	f := newChatFixture(t, srv)
	turn, err := f.api.ChatSend(ChatSendInput{Prompt: "delete Welcome"})
	if err != nil {
		t.Fatal(err)
	}
	evs := f.until(t, event.ChatApproval)
	ask := evs[len(evs)-1].Data.(event.ChatApprovalEvent)
	if ask.Name != "delete_entities" || ask.Turn != turn.Turn {
		t.Fatalf("approval = %+v", ask)
	}
	if _, err := f.api.ChatSend(ChatSendInput{Prompt: "meanwhile"}); err == nil || !strings.Contains(err.Error(), "Stop") {
		t.Errorf("a second turn while one runs: %v", err)
	}
	if err := f.api.ChatApprove(ask.ID, true); err != nil {
		t.Fatal(err)
	}
	if done := f.until(t, event.ChatDone); done[len(done)-1].Data.(event.ChatDoneEvent).Error != "" {
		t.Errorf("done: %+v", done[len(done)-1])
	}
	l, _ := f.ws.Library("")
	if _, err := os.Stat(filepath.Join(l.Vault().Dir(), "Welcome.md")); !os.IsNotExist(err) {
		t.Errorf("Welcome.md still there after approval: %v", err)
	}
	if err := f.api.ChatApprove(ask.ID, true); err == nil {
		t.Error("an answered approval accepted twice")
	}

	// Stop while an approval waits: the call is not run, the history is consistent.
	turn2, err := f.api.ChatSend(ChatSendInput{Session: turn.Session, Prompt: "delete meta"})
	if err != nil {
		t.Fatal(err)
	}
	f.until(t, event.ChatApproval)
	if err := f.api.ChatStop(turn2.Turn); err != nil {
		t.Fatal(err)
	}
	evs = f.until(t, event.ChatDone)
	done := evs[len(evs)-1].Data.(event.ChatDoneEvent)
	if !done.Stopped || !strings.Contains(done.Error, "Stopped") {
		t.Errorf("done after stop: %+v", done)
	}
	if _, err := os.Stat(filepath.Join(l.Vault().Dir(), "meta.md")); err != nil {
		t.Errorf("meta.md deleted after Stop: %v", err)
	}
	v, err := f.api.ChatSession(turn.Session)
	if err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	for _, m := range v.Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	for _, m := range v.Messages {
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				t.Errorf("call %s without a result after Stop", c.ID)
			}
		}
	}
}

func TestChatSettingsKeepTheKey(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetModels("qwen3:8b")
	f := newChatFixture(t, srv)
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("MEMOTREE_MODEL", "")
	t.Setenv("OPENAI_API_KEY", "")
	v, err := f.api.SaveChatSettings(ChatSettingsInput{BaseURL: srv.URL(), Model: "qwen3:8b", APIKey: "sk-saved-secret-7777"})
	if err != nil {
		t.Fatal(err)
	}
	if !v.KeySet || v.KeyHint != "…7777" || v.Model != "qwen3:8b" {
		t.Errorf("view = %+v", v)
	}
	raw, _ := os.ReadFile(f.api.chat.path())
	fi, _ := os.Stat(f.api.chat.path())
	if !strings.Contains(string(raw), "sk-saved-secret-7777") || fi.Mode().Perm() != 0o600 {
		t.Errorf("settings file %o: %s", fi.Mode().Perm(), raw)
	}
	// Saving again without a key keeps it.
	if _, err := f.api.SaveChatSettings(ChatSettingsInput{BaseURL: srv.URL(), Model: "qwen3:8b"}); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(f.api.chat.path()); !strings.Contains(string(raw), "sk-saved-secret-7777") {
		t.Errorf("saving without a key dropped it: %s", raw)
	}
	check, err := f.api.TestChatConnection(ChatSettingsInput{BaseURL: srv.URL(), Model: "qwen3:8b"})
	if err != nil || !check.OK {
		t.Errorf("test: %+v, %v", check, err)
	}
	if r := srv.Requests(); len(r) != 0 {
		t.Errorf("listing models sent chat requests: %d", len(r))
	}
	check, _ = f.api.TestChatConnection(ChatSettingsInput{BaseURL: srv.URL(), Model: "nope"})
	if check.OK || !strings.Contains(check.Message, "qwen3:8b") {
		t.Errorf("unknown model: %+v", check)
	}
	// The embeddings model saved here is the one semantic search uses next.
	t.Setenv("MEMOTREE_EMBEDDING_MODEL", "")
	v, err = f.api.SaveChatSettings(ChatSettingsInput{BaseURL: srv.URL(), Model: "qwen3:8b", EmbeddingModel: " nomic-embed-text "})
	if err != nil || v.EmbeddingModel != "nomic-embed-text" || !v.KeySet {
		t.Fatalf("saving the embeddings model: %+v, %v", v, err)
	}
	if m := llm.NewSettingsEmbedder(llm.Resolver{Path: f.api.chat.path()}).EmbeddingModel(); m != "nomic-embed-text" {
		t.Errorf("the settings embedder reads model %q", m)
	}
}

// A window reloaded mid-turn attaches to it: ChatLive gives the prompt and what the
// turn published so far (the finished call, the approval that waits), and nothing
// once the turn is over.
func TestChatLiveReplaysTheRunningTurn(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.ToolCall("call_1", "create_entity", `{"entity_name":"people/Mary Somerville","entity_type":"person"}`),
		llmtest.ToolCall("call_2", "delete_entities", `{"entity_names":["Welcome"]}`),
		llmtest.Text("Done."))
	f := newChatFixture(t, srv)
	if v, err := f.api.ChatLive(); err != nil || v.Turn != "" || len(v.Events) != 0 {
		t.Fatalf("ChatLive with no turn = %+v, %v", v, err)
	}
	turn, err := f.api.ChatSend(ChatSendInput{Prompt: "Add Mary, drop Welcome"})
	if err != nil {
		t.Fatal(err)
	}
	evs := f.until(t, event.ChatApproval)
	ask := evs[len(evs)-1].Data.(event.ChatApprovalEvent)
	v, err := f.api.ChatLive()
	if err != nil || v.Turn != turn.Turn || v.Session != turn.Session || v.Prompt != "Add Mary, drop Welcome" || v.Started == "" {
		t.Fatalf("ChatLive = %+v, %v", v, err)
	}
	var got []string
	for _, e := range v.Events {
		switch d := e.Data.(type) {
		case event.ChatToolEvent:
			got = append(got, e.Topic+":"+d.Name+":"+d.Phase)
		case event.ChatApprovalEvent:
			got = append(got, e.Topic+":"+d.ID)
		default:
			got = append(got, e.Topic)
		}
	}
	want := "chat:tool:create_entity:start,chat:tool:create_entity:end,chat:approval:" + ask.ID
	if strings.Join(got, ",") != want {
		t.Errorf("live events:\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	if err := f.api.ChatApprove(ask.ID, true); err != nil {
		t.Fatal(err)
	}
	f.until(t, event.ChatDone)
	if v, err := f.api.ChatLive(); err != nil || v.Turn != "" {
		t.Errorf("ChatLive after the turn = %+v, %v", v, err)
	}
}

// The live log merges consecutive deltas (keeping the last seq), keeps a tool call
// between them apart, and forgets an approval once answered.
func TestChatOutLogMergesDeltas(t *testing.T) {
	bus := event.NewBus()
	o := newChatOut(bus, "s1", "t1")
	o.delta("Hello ")
	o.flush()
	o.delta("there.")
	o.flush()
	o.call(agent.CallEvent{ID: "c1", Name: "read_entity", Args: "{}", Phase: "start"})
	o.delta("More")
	o.approval(event.ChatApprovalEvent{Session: "s1", Turn: "t1", ID: "t1-a1", Name: "delete_entities"})
	log := o.snapshot()
	if len(log) != 4 {
		t.Fatalf("log = %+v", log)
	}
	if d := log[0].Data.(event.ChatDeltaEvent); d.Text != "Hello there." || d.Seq != 2 {
		t.Errorf("merged delta = %+v", d)
	}
	if d := log[2].Data.(event.ChatDeltaEvent); d.Text != "More" || d.Seq != 3 {
		t.Errorf("delta after the call = %+v", d)
	}
	o.answered("t1-a1")
	if log := o.snapshot(); len(log) != 3 || log[2].Topic != event.ChatDelta {
		t.Errorf("after the answer: %+v", log)
	}
}

// TestChatSensesPendingChanges checks that the window's agent is told how many changes
// wait for review, counted by git_status through its typed output.
func TestChatSensesPendingChanges(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Two notes changed."))
	f := newChatFixture(t, srv)
	l, err := f.ws.Library("")
	if err != nil {
		t.Fatal(err)
	}
	dir := l.Vault().Dir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, name := range []string{"Welcome.md", "meta.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.api.ChatSend(ChatSendInput{Prompt: "What changed?", Library: "demo"}); err != nil {
		t.Fatal(err)
	}
	if done := f.until(t, event.ChatDone); done[len(done)-1].Data.(event.ChatDoneEvent).Error != "" {
		t.Fatalf("turn failed: %+v", done[len(done)-1].Data)
	}
	msgs := srv.Requests()[0].Body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if !strings.Contains(last, "pending changes (not committed): 2\n") {
		t.Errorf("the sensory block lacks the two pending changes:\n%s", last)
	}
}
