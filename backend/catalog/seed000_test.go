package catalog_test

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// TestCreateEntitySeed000 checks create_entity's title, initial_level and
// auto_generate_summary (seed 000's CreateNodeRequest).
func TestCreateEntitySeed000(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Inventor of the first programmable computer."))
	h := summaryHarness(t, srv, false) // the library's auto_summary is off
	h.ok("create_entity", `{"entity_name": "people/Konrad Zuse", "title": "Konrad Zuse (1910–1995)", "content": "Built the Z3.", "initial_level": "full", "auto_generate_summary": true}`)
	text := h.read("people/Konrad Zuse.md")
	if !strings.Contains(text, "title: Konrad Zuse (1910–1995)\n") || !strings.Contains(text, "summary: Inventor of the first programmable computer.\n") {
		t.Errorf("title or asked-for summary missing:\n%s", text)
	}
	if canvas := h.ok("view_canvas", `{}`)["canvas"].(string); !strings.Contains(canvas, "· people/Konrad Zuse [full]") || !strings.Contains(canvas, "Built the Z3.") {
		t.Errorf("initial_level full is not on the canvas:\n%s", canvas)
	}
	h.ok("create_entity", `{"entity_name": "people/Quiet", "content": "q", "initial_level": "title", "auto_generate_summary": false}`)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model was asked %d times, want 1 (auto_generate_summary false asks none)", n)
	}
	if canvas := h.ok("view_canvas", `{}`)["canvas"].(string); !strings.Contains(canvas, "· people/Quiet [title]") {
		t.Errorf("initial_level title is not on the canvas:\n%s", canvas)
	}
	for _, tc := range []struct {
		args string
		code tool.Code
		says string
	}{
		{`{"entity_name": "X", "initial_level": "huge"}`, tool.CodeInvalidArguments, "initial_level"},
		{`{"entity_name": "X", "auto_generate_summary": "yes"}`, tool.CodeInvalidArguments, "auto_generate_summary"},
		{`{"entity_name": "people/Quiet", "initial_level": "full"}`, tool.CodeAlreadyExists, "already exists"},
	} {
		if res := h.call("create_entity", tc.args); res.ErrorCode != tc.code || !strings.Contains(res.Message, tc.says) {
			t.Errorf("create_entity(%s) = %s %q, want %s saying %q", tc.args, res.ErrorCode, res.Message, tc.code, tc.says)
		}
	}
	// Without a model, asking for a summary is a warning, and the note is created.
	plain := entNew(t, entFixture, workspace.Options{})
	res := plain.call("create_entity", `{"entity_name": "Y", "content": "y", "auto_generate_summary": true}`)
	if res.IsError() || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no model is configured") {
		t.Errorf("auto_generate_summary without a model: %s", res.YAML())
	}
}

// TestUpdateEntitySeed000 checks update_entity's title, level, summary and
// regenerate_summary (seed 000's UpdateNodeRequest).
func TestUpdateEntitySeed000(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("A new summary by the model."))
	h := summaryHarness(t, srv, false)
	h.ok("update_entity", `{"entity_name": "Engine", "title": "The Engine", "summary": "Babbage's machine."}`)
	text := h.read("Engine.md")
	if !strings.Contains(text, "title: The Engine\n") || !strings.Contains(text, "summary: Babbage's machine.\n") {
		t.Errorf("title and summary:\n%s", text)
	}
	// level alone moves the note on the canvas and leaves the file as it is.
	before := h.read("Engine.md")
	h.ok("update_entity", `{"entity_name": "Engine", "level": "summary"}`)
	if h.read("Engine.md") != before {
		t.Error("a level-only update rewrote the note")
	}
	if canvas := h.ok("view_canvas", `{}`)["canvas"].(string); !strings.Contains(canvas, "· Engine [summary]") || !strings.Contains(canvas, "summary: Babbage's machine.") {
		t.Errorf("level summary is not on the canvas:\n%s", canvas)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was asked %d times before regenerate_summary", n)
	}
	h.ok("update_entity", `{"entity_name": "Engine", "regenerate_summary": true}`)
	if text := h.read("Engine.md"); !strings.Contains(text, "summary: A new summary by the model.\n") || strings.Contains(text, "Babbage's machine") {
		t.Errorf("regenerate_summary did not replace the summary:\n%s", text)
	}
	if res := h.call("update_entity", `{"entity_name": "Engine", "summary": "x", "regenerate_summary": true}`); res.ErrorCode != tool.CodeInvalidArguments {
		t.Errorf("summary with regenerate_summary: %s", res.YAML())
	}
	if res := h.call("update_entity", `{"entity_name": "Engine", "level": "everything"}`); res.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(res.Message, "level") {
		t.Errorf("a bad level: %s", res.YAML())
	}
}
