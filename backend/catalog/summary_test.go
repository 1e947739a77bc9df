package catalog_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// summaryHarness is a workspace whose tools have a model (the fake server) for
// summaries.
func summaryHarness(t *testing.T, srv *llmtest.Server, on bool) *entHarness {
	t.Helper()
	h := entNew(t, entFixture, workspace.Options{})
	client, err := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: "k", Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second, Tries: 1})
	if err != nil {
		t.Fatal(err)
	}
	h.reg = tool.NewRegistry()
	if err := catalog.Register(h.reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: h.ws, Summarizer: client}); err != nil {
		t.Fatal(err)
	}
	if err := canvas.New(h.lib(), nil).SetSettings(canvas.Settings{AutoSummary: on}); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAutoSummary(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text(` "A Victorian engineer who built calculating machines."  `))
	h := summaryHarness(t, srv, true)
	d := h.ok("create_entity", `{"entity_name": "people/Joseph Clement", "content": "Built the Difference Engine for [[Charles Babbage]]."}`)
	text := h.read("people/Joseph Clement.md")
	if !strings.Contains(text, "summary: A Victorian engineer who built calculating machines.\n") || !strings.Contains(text, "Built the Difference Engine") {
		t.Errorf("no summary in the note:\n%s", text)
	}
	if d["summary"] != "A Victorian engineer who built calculating machines." {
		t.Errorf("result: %v", d)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	msgs := reqs[0].Body["messages"].([]any)
	if user := msgs[1].(map[string]any)["content"].(string); !strings.Contains(user, "people/Joseph Clement") || !strings.Contains(user, "Difference Engine") {
		t.Errorf("the model was not given the note: %q", user)
	}
	// A note that has a summary is left alone; the view shows the summary.
	h.ok("update_entity", `{"entity_name": "people/Joseph Clement", "content": "More.", "mode": "append"}`)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("a note with a summary was summarised again (%d requests)", n)
	}
	if v := h.ok("expand_node", `{"entity_name": "Joseph Clement", "level": "summary"}`); !strings.Contains(v["shown"].(string), "summary: A Victorian engineer") {
		t.Errorf("the canvas does not show it: %v", v["shown"])
	}
	// update_entity on a note without one asks too.
	h.ok("update_entity", `{"entity_name": "notes/Plain", "content": "Plain words.", "mode": "append"}`)
	if text := h.read("notes/Plain.md"); !strings.Contains(text, "summary: A Victorian engineer") || !strings.Contains(text, "No links here.") {
		t.Errorf("update_entity wrote no summary:\n%s", text)
	}
}

func TestAutoSummaryOffAndFailing(t *testing.T) {
	srv := llmtest.New(t, llmtest.Error(500, "down"))
	h := summaryHarness(t, srv, false)
	h.ok("create_entity", `{"entity_name": "A", "content": "a"}`)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the setting is off, yet the model was asked %d times", n)
	}
	if err := canvas.New(h.lib(), nil).SetSettings(canvas.Settings{AutoSummary: true}); err != nil {
		t.Fatal(err)
	}
	res := h.call("create_entity", `{"entity_name": "B", "content": "b"}`)
	if res.IsError() || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no summary was written") {
		t.Errorf("a failing model: %s %q %v", res.Status, res.Message, res.Warnings)
	}
	if text := h.read("B.md"); strings.Contains(text, "summary") || !strings.Contains(text, "b") {
		t.Errorf("B.md:\n%s", text)
	}
}

// TestAutoSummaryFollowsTheSettings: with the settings summarizer every face uses, a
// library with auto_summary on writes no summary (and no warning) while no model is
// named, and one as soon as the settings file names one, without reopening anything.
func TestAutoSummaryFollowsTheSettings(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("A short note."))
	path := filepath.Join(t.TempDir(), "settings.toml")
	s := llm.NewSettingsSummarizer(llm.Resolver{Path: path, Getenv: func(string) string { return "" }})
	h := entNew(t, entFixture, workspace.Options{Summarizer: s})
	if err := canvas.New(h.lib(), nil).SetSettings(canvas.Settings{AutoSummary: true}); err != nil {
		t.Fatal(err)
	}
	reg, err := h.ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	h.reg = reg
	if res := h.call("create_entity", `{"entity_name": "A", "content": "a"}`); res.IsError() || len(res.Warnings) != 0 || len(srv.Requests()) != 0 {
		t.Fatalf("no model named: %+v, %d requests", res, len(srv.Requests()))
	}
	if err := llm.SaveSettings(path, llm.Settings{BaseURL: srv.URL(), Model: "m"}); err != nil {
		t.Fatal(err)
	}
	h.ok("create_entity", `{"entity_name": "B", "content": "b"}`)
	if text := h.read("B.md"); !strings.Contains(text, "summary: A short note.\n") {
		t.Errorf("no summary once a model is saved:\n%s", text)
	}
}
