package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// TestRunStarlarkOverMCP: run_starlark is served like every tool; a client's script
// runs with the client's permission, and a failing one leaves the vault as it was,
// also in the watched library's graph, having written nothing.
func TestRunStarlarkOverMCP(t *testing.T) {
	cs, ws, dir := connect(t, tool.PermPropose)
	e, _ := call(t, cs, "run_starlark", map[string]any{"target": "two notes", "code": "create_entity(entity_name='mcp/One', content='1')\ncreate_entity(entity_name='mcp/Two', content='2')\n__result__ = 2"})
	var o struct {
		Result  int
		Changes []struct{ Path string }
	}
	if err := json.Unmarshal(e.Data, &o); e.Status != "success" || err != nil || o.Result != 2 || len(o.Changes) != 2 {
		t.Fatalf("run_starlark: %+v (%v)", e, err)
	}
	before := treeHash(t, dir)
	e, _ = call(t, cs, "run_starlark", map[string]any{"target": "fails", "code": "create_entity(entity_name='mcp/Three', content='3')\nfail('on purpose')"})
	if e.Status != "error" || e.ErrorCode != "script_error" {
		t.Fatalf("failing script: %+v", e)
	}
	if treeHash(t, dir) != before {
		t.Error("a failed script changed the vault")
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp", "Three.md")); !os.IsNotExist(err) {
		t.Errorf("mcp/Three.md: %v", err)
	}
	// A failed script wrote nothing, so the watched graph has nothing to follow: it
	// holds what the first script made and nothing of the failed one, at once.
	l, _ := ws.Library("")
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if g.Has("mcp/Three.md") || !g.Has("mcp/One.md") {
		t.Error("the watched graph does not match the files after the failed script")
	}
	// Deleting waits for the person under propose, also from a script; this client
	// cannot ask them, and no window is open, so it is refused. Discarding and
	// committing are not a script's to do at all.
	e, _ = call(t, cs, "run_starlark", map[string]any{"target": "delete", "code": "delete_entities(entity_names=['mcp/One'])"})
	if e.ErrorCode != string(tool.CodeApprovalRequired) || !exists(dir, "mcp/One.md") {
		t.Errorf("delete_entities from a client's script under propose: %+v", e)
	}
	e, _ = call(t, cs, "run_starlark", map[string]any{"target": "discard", "code": "git_checkout(entity_names=['mcp/One'], confirmed=True)"})
	if e.ErrorCode != "script_error" || !strings.Contains(e.Message, "git_checkout") || !exists(dir, "mcp/One.md") {
		t.Errorf("git_checkout from a client's script: %+v", e)
	}
	e, _ = call(t, cs, "run_starlark", map[string]any{"target": "commit", "code": "git_commit(message='x')"})
	if e.ErrorCode != "script_error" || !strings.Contains(e.Message, "git_commit") {
		t.Errorf("git_commit from a client's script: %+v", e)
	}
}
