package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// TestScriptKeepsItsCallersPermission: the calls of a script are judged as the caller
// of run_starlark. The agent in a read-only library may run a script that reads, but
// its writes are refused and nothing changes; the person's script may write.
func TestScriptKeepsItsCallersPermission(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Ada.md"), []byte("Ada\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(t.Context(), []Spec{{Name: "ro", Path: dir, Permission: tool.PermRead}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	reg, err := w.Registry()
	if err != nil {
		t.Fatal(err)
	}
	run := func(actor, code string) tool.Result {
		args, _ := json.Marshal(map[string]string{"target": "t", "code": code})
		res, err := reg.Call(t.Context(), &tool.Call{Actor: actor}, "run_starlark", args)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := run(tool.ActorAgent, `__result__ = list_entities(entity_glob="**")["entities"]`); res.IsError() {
		t.Errorf("a reading script of the agent was refused: %s", res.Message)
	}
	res := run(tool.ActorAgent, "read_entities(entity_names=['Ada'])\ncreate_entity(entity_name='Sneaky', content='x')")
	if res.ErrorCode != tool.CodePermissionDenied || !strings.Contains(res.Message, "read-only") {
		t.Errorf("agent's writing script: %s %s", res.ErrorCode, res.Message)
	}
	mcp := run(tool.MCPActor("claude"), "create_entity(entity_name='Sneaky', content='x')")
	if mcp.ErrorCode != tool.CodePermissionDenied {
		t.Errorf("MCP client's writing script: %s %s", mcp.ErrorCode, mcp.Message)
	}
	if _, err := os.Stat(filepath.Join(dir, "Sneaky.md")); !os.IsNotExist(err) {
		t.Fatalf("a script escaped the read-only permission: %v", err)
	}
	if res := run(tool.ActorUser, "create_entity(entity_name='Mine', content='x')"); res.IsError() {
		t.Errorf("the person's script was refused: %s", res.Message)
	}
	// A script cannot pretend to be someone else: a script's calls are never user calls.
	if res := run(tool.ActorScript, "create_entity(entity_name='Sneaky', content='x')"); res.ErrorCode != tool.CodePermissionDenied {
		t.Errorf("script actor: %s %s", res.ErrorCode, res.Message)
	}
}
