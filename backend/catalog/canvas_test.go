package catalog_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

func TestCanvasTools(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	view := h.ok("view_canvas", `{}`)
	text, _ := view["canvas"].(string)
	if !strings.Contains(text, "+ people/ 2 notes") || view["tokens"].(float64) <= 0 {
		t.Fatalf("view_canvas: %v", view)
	}

	d := h.ok("expand_node", `{"entity_name": "Ada", "level": "full"}`)
	shown, _ := d["shown"].(string)
	if !strings.Contains(shown, `<note name="people/Ada Lovelace">`) || !strings.Contains(shown, "born in 1816") {
		t.Errorf("expand_node by alias at full: %v", d)
	}
	d = h.ok("expand_node", `{"entity_name": "people/Ada Lovelace#later life", "level": "full"}`)
	if shown, _ := d["shown"].(string); !strings.Contains(shown, "born in 1816") {
		t.Errorf("expand_node on a section: %v", d)
	}
	d = h.ok("expand_node", `{"entity_name": "Engine#Engine", "view_name": "side"}`)
	if shown, _ := d["shown"].(string); !strings.Contains(shown, "§ Engine#Engine [full]") {
		t.Errorf("a section: %v", d)
	}
	d = h.ok("expand_node", `{"entity_name": "notes", "view_name": "side"}`)
	if shown, _ := d["shown"].(string); !strings.Contains(shown, "- notes/ [summary] 1 note") {
		t.Errorf("a folder by its path: %v", d)
	}
	d = h.ok("collapse_node", `{"entity_name": "people/Ada Lovelace", "recursive": true}`)
	if ch, _ := d["changed"].([]any); len(ch) != 2 {
		t.Errorf("collapse_node recursive collapsed %v, want the note and its section", d["changed"])
	}
	if text, _ := h.ok("view_canvas", `{"view_name": "side"}`)["canvas"].(string); !strings.Contains(text, "- notes/ [summary]") {
		t.Errorf("view side:\n%s", text)
	}

	for _, tt := range []struct{ args, code string }{
		{`{"entity_name": "Nobody"}`, string(tool.CodeNotFound)},
		{`{"entity_name": "Engine#Nowhere"}`, string(tool.CodeNotFound)},
		{`{"entity_name": "people/[9]"}`, string(tool.CodeNotFound)},
		{`{"entity_name": "Engine", "level": "huge"}`, string(tool.CodeInvalidArguments)},
		{`{"entity_name": "meta"}`, string(tool.CodeInvalidArguments)},
		{`{"entity_name": "Engine", "view_name": "../x"}`, string(tool.CodeInvalidArguments)},
	} {
		res := h.call("expand_node", tt.args)
		if string(res.ErrorCode) != tt.code {
			t.Errorf("expand_node(%s) = %s %q, want %s", tt.args, res.ErrorCode, res.Message, tt.code)
		}
	}
	for _, name := range []string{"expand_details", "hide_details", "move_page"} {
		if _, ok := h.reg.Get(name); !ok || !slices.Contains(h.reg.Names(), name) {
			t.Errorf("%s is not a registered tool", name)
		}
	}
}

func TestCanvasFollowsRenameEntity(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	// Seed 003's names and parameters: expand_details(page_index), move_page(source, target).
	h.ok("expand_details", `{"page_index": "t:Engine"}`)
	h.ok("move_page", `{"source": "t:Engine", "target": "t:notes/"}`)
	text, _ := h.ok("view_canvas", `{}`)["canvas"].(string)
	if !strings.Contains(text, "· notes/Engine [full]") {
		t.Errorf("the view did not follow move_page:\n%s", text)
	}
}

func TestCanvasReadOnlyLibrary(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "t", Path: h.dir, Permission: tool.PermRead}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent}, "expand_node", []byte(`{"entity_name": "Engine"}`))
	if err != nil || res.IsError() {
		t.Errorf("expand_node in a read-only library: %v %s", err, res.Message)
	}
}

// TestCollapseFolderHidesWhatIsBelow checks seed 000's collapse: a folder collapsed
// without recursive closes, hiding what was open below it (the view costs less), and
// opens again as it was; with recursive, what was below is lowered too.
func TestCollapseFolderHidesWhatIsBelow(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	h.ok("expand_node", `{"entity_name": "people/", "level": "summary"}`)
	h.ok("expand_node", `{"entity_name": "Ada", "level": "full"}`)
	open := h.ok("view_canvas", `{}`)
	if text := open["canvas"].(string); !strings.Contains(text, "born in 1816") {
		t.Fatalf("Ada at full is not shown:\n%s", text)
	}
	d := h.ok("collapse_node", `{"entity_name": "people/"}`)
	closed := h.ok("view_canvas", `{}`)
	text := closed["canvas"].(string)
	if strings.Contains(text, "· people/Ada Lovelace") || !strings.Contains(text, "+ people/ 2 notes") {
		t.Errorf("people/ collapsed still shows what is below it:\n%s", text)
	}
	if closed["tokens"].(float64) >= open["tokens"].(float64) {
		t.Errorf("collapsing people/ did not make the view cheaper: %v then %v tokens (%v)", open["tokens"], closed["tokens"], d)
	}
	h.ok("expand_node", `{"entity_name": "people/"}`)
	if text := h.ok("view_canvas", `{}`)["canvas"].(string); !strings.Contains(text, "born in 1816") {
		t.Errorf("people/ opened again does not show Ada as she was:\n%s", text)
	}
	h.ok("collapse_node", `{"entity_name": "people/", "recursive": true}`)
	h.ok("expand_node", `{"entity_name": "people/"}`)
	if text := h.ok("view_canvas", `{}`)["canvas"].(string); strings.Contains(text, "born in 1816") || !strings.Contains(text, "Ada Lovelace [title]") {
		t.Errorf("after a recursive collapse Ada must be back at title:\n%s", text)
	}
	// A note expanded inside a closed folder opens the way to it.
	h.ok("collapse_node", `{"entity_name": "people/"}`)
	h.ok("expand_node", `{"entity_name": "Charles Babbage", "level": "summary"}`)
	if text := h.ok("view_canvas", `{}`)["canvas"].(string); !strings.Contains(text, "Charles Babbage [summary]") {
		t.Errorf("a note expanded in a closed folder is not shown:\n%s", text)
	}
}
