package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
)

// TestReadOnlyNotes: a note whose permissions allow no writing (chmod 444) is never
// changed, moved or deleted by any tool — its own update, edit, rename, move, removal,
// a merge into it, a relation stored in it, a rename elsewhere that would rewrite its
// links, a script — each refused with a clear error naming it, no note changed (the
// journey records the refused attempt, as it records every failed write), its mode
// kept.
func TestReadOnlyNotes(t *testing.T) {
	calls := []struct{ tool, args string }{
		{"update_entity", `{"entity_name":"Hub","content":"x","mode":"append"}`},
		{"edit_entity", `{"entity_name":"Hub","old_content":"The middle.","new_content":"The edge."}`},
		{"rename_entity", `{"old_name":"Hub","new_name":"Spoke"}`},
		{"move_entity", `{"entity_name":"Hub","folder":"elsewhere"}`},
		{"delete_entities", `{"entity_names":["Hub"]}`},
		{"merge_entities", `{"source_names":["Other"],"target_name":"Hub"}`},
		{"create_relations", `{"relations":[{"from":"Hub","to":"Other","type":"see also"}]}`},
		{"rename_entity", `{"old_name":"Other","new_name":"Another"}`}, // n/00 links to it
		{"run_starlark", `{"target":"t","code":"update_entity(entity_name=\"Other\", content=\"x\", mode=\"append\")\nupdate_entity(entity_name=\"Hub\", content=\"x\", mode=\"append\")"}`},
	}
	for _, c := range calls {
		dir := seedIn(t)
		for _, name := range []string{"Hub.md", "n/00.md"} {
			if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(name)), 0o444); err != nil {
				t.Fatal(err)
			}
		}
		before := tree(t, dir, false)
		ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		reg, _ := ws.Registry()
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI, Approved: true}, c.tool, json.RawMessage(c.args))
		ws.Close()
		if err != nil || !res.IsError() || !strings.Contains(res.Message+strings.Join(res.Warnings, " "), "read-only") {
			t.Errorf("%s %s: %v %s %q; want an error saying the note is read-only", c.tool, c.args, err, res.ErrorCode, res.Message)
		}
		if d := cmp.Diff(before, tree(t, dir, false)); d != "" {
			t.Errorf("%s %s changed the vault (-want +got):\n%s", c.tool, c.args, d)
		}
		if st, err := os.Stat(filepath.Join(dir, "Hub.md")); err != nil || st.Mode().Perm() != 0o444 {
			t.Errorf("%s: Hub.md's mode is %v (%v)", c.tool, st.Mode(), err)
		}
	}
}
