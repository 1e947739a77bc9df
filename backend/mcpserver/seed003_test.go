package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// TestSeed003OverMCP runs seed 003's own example through run_starlark over MCP, with
// an existing page of the demo vault as its parent_index, and calls the seed's tools
// directly under their names.
func TestSeed003OverMCP(t *testing.T) {
	cs, _, dir := connect(t, tool.PermPropose)
	b, err := os.ReadFile("../../testdata/seeds/003_example.star.txt")
	if err != nil {
		t.Fatal(err)
	}
	code := strings.ReplaceAll(string(b), `"page:001"`, `"demo:ideas/"`)
	e, _ := call(t, cs, "run_starlark", map[string]any{"target": "seed 003", "code": code})
	var o struct {
		Result string
		Output string
	}
	if err := json.Unmarshal(e.Data, &o); e.Status != "success" || err != nil || o.Result != "demo:ideas/新想法" {
		t.Fatalf("the seed's example over MCP: %+v (%v)", e, err)
	}
	if !strings.Contains(o.Output, "Segment: demo, Type: default") || !strings.Contains(o.Output, "Page: ideas") || !strings.Contains(o.Output, "Found: 新想法") {
		t.Errorf("output:\n%s", o.Output)
	}
	if _, err := os.Stat(filepath.Join(dir, "ideas", "新想法.md")); err != nil {
		t.Errorf("the page was not written: %v", err)
	}
	// The tools themselves, by the seed's names.
	e, _ = call(t, cs, "get_page", map[string]any{"page_index": "demo:ideas/新想法"})
	var p map[string]any
	if err := json.Unmarshal(e.Data, &p); err != nil || p["description"] != "关于工具调用的思考" || p["type"] != "detail" || p["has_detail"] != true {
		t.Errorf("get_page over MCP: %+v", e)
	}
	e, _ = call(t, cs, "list_segments", map[string]any{})
	if !strings.Contains(string(e.Data), `"root_index":"demo:/"`) {
		t.Errorf("list_segments over MCP: %s", e.Data)
	}
	e, _ = call(t, cs, "get_page", map[string]any{"index": "demo:/"})
	if e.ErrorCode != "invalid_arguments" || !strings.Contains(e.Message, "page_index") {
		t.Errorf("a wrong parameter name over MCP: %+v", e)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tl := range tools.Tools {
		seen[tl.Name] = true
		if tl.Name == "remove_page" && (tl.Annotations == nil || tl.Annotations.DestructiveHint == nil || !*tl.Annotations.DestructiveHint) {
			t.Errorf("remove_page is not marked destructive: %+v", tl.Annotations)
		}
	}
	for _, name := range []string{"list_segments", "get_segment", "get_page", "find_page", "update_page", "expand_details", "hide_details", "move_page", "remove_page", "create_detail_page", "create_contents_page"} {
		if !seen[name] {
			t.Errorf("MCP does not list %s", name)
		}
	}
}
