package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// kitNames picks one string field of every item of a list in a result's data.
func kitNames(t *testing.T, res tool.Result, list, field string) []string {
	t.Helper()
	kitWant(t, res, tool.StatusSuccess)
	items, _ := kitData(t, res)[list].([]any)
	out := []string{}
	for _, it := range items {
		out = append(out, it.(map[string]any)[field].(string))
	}
	return out
}

func TestListLibraries(t *testing.T) {
	dir := kitCopy(t, kitDemo)
	other := kitCopy(t, "../../testdata/resolution")
	reg := kitOpen(t, dir, workspace.Spec{Name: "res", Path: other, Permission: tool.PermRead})
	res := kitCall(t, reg, "list_libraries", `{}`)
	libs, _ := kitData(t, res)["libraries"].([]any)
	if len(libs) != 2 {
		t.Fatalf("%d libraries, want 2:\n%s", len(libs), res.YAML())
	}
	first, second := libs[0].(map[string]any), libs[1].(map[string]any)
	want := map[string]any{"name": "t", "path": dir, "notes": float64(35), "permission": "propose", "default": true}
	if d := cmp.Diff(want, first); d != "" {
		t.Errorf("default library (-want +got):\n%s", d)
	}
	if second["name"] != "res" || second["permission"] != "read" || second["default"] != nil {
		t.Errorf("second library: %v", second)
	}
}

func TestTreeTools(t *testing.T) {
	dir := kitCopy(t, kitDemo)
	kitWrite(t, dir, "machines.md", "# Machines\n\nThe folder note of machines/.\n")
	reg := kitOpen(t, dir)
	tests := []struct {
		tool, args, list, field string
		want                    []string
	}{
		{"get_children", `{"entity_name":"machines"}`, "children", "name",
			[]string{"machines/electronic", "machines/imagined", "machines/mechanical"}},
		{"get_children", `{"entity_name":"machines/mechanical/"}`, "children", "name",
			[]string{"machines/mechanical/Analytical Engine", "machines/mechanical/Difference Engine", "machines/mechanical/Jacquard Loom"}},
		{"get_children", `{"entity_name":"中文/人物"}`, "children", "name", []string{"中文/人物/沈括", "中文/人物/王选"}},
		{"get_children", `{"entity_name":"Ada Lovelace"}`, "children", "name", []string{}},
		{"get_ancestors", `{"entity_name":"算盘"}`, "ancestors", "name", []string{"中文/器物", "中文", "/"}},
		{"get_ancestors", `{"entity_name":"Welcome"}`, "ancestors", "name", []string{"/"}},
		{"get_ancestors", `{"entity_name":"/"}`, "ancestors", "name", []string{}},
		{"get_backlinks", `{"entity_name":"Jacquard Loom","limit":3}`, "backlinks", "source", []string{
			"Welcome", "machines/mechanical/Analytical Engine", "machines/mechanical/Analytical Engine",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.tool+tc.args, func(t *testing.T) {
			got := kitNames(t, kitCall(t, reg, tc.tool, tc.args), tc.list, tc.field)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// A note named like a folder stands for it.
	if got := kitNames(t, kitCall(t, reg, "get_children", `{"entity_name":"machines.md"}`), "children", "name"); len(got) != 3 {
		t.Errorf("children of the folder note: %v", got)
	}
	res := kitCall(t, reg, "get_parent", `{"entity_name":"Analytical Engine"}`)
	parent, _ := kitData(t, res)["parent"].(map[string]any)
	if d := cmp.Diff(map[string]any{"name": "machines/mechanical", "kind": "folder", "notes": float64(3)}, parent); d != "" {
		t.Errorf("get_parent (-want +got):\n%s", d)
	}
	res = kitCall(t, reg, "get_parent", `{"entity_name":"machines/mechanical/"}`)
	parent, _ = kitData(t, res)["parent"].(map[string]any)
	if parent["name"] != "machines" || parent["folder_note"] != "machines" {
		t.Errorf("get_parent of a folder: %v", parent)
	}
}

func TestGetNeighborsAndBacklinkContext(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	res := kitCall(t, reg, "get_neighbors", `{"entity_name":"Jacquard Loom","relation_types":["inspired"]}`)
	kitWant(t, res, tool.StatusSuccess)
	ns, _ := kitData(t, res)["neighbors"].([]any)
	want := []any{map[string]any{"name": "machines/mechanical/Analytical Engine", "distance": float64(1), "via": []any{
		map[string]any{"from": "machines/mechanical/Jacquard Loom", "to": "machines/mechanical/Analytical Engine", "type": "inspired"},
	}}}
	if d := cmp.Diff(want, ns); d != "" {
		t.Errorf("neighbours along one relation type (-want +got):\n%s", d)
	}
	two := kitNames(t, kitCall(t, reg, "get_neighbors", `{"entity_name":"Jacquard Loom","depth":2,"limit":500}`), "neighbors", "name")
	one := kitNames(t, kitCall(t, reg, "get_neighbors", `{"entity_name":"Jacquard Loom","limit":500}`), "neighbors", "name")
	if len(two) <= len(one) {
		t.Errorf("depth 2 found %d notes, depth 1 %d", len(two), len(one))
	}
	res = kitCall(t, reg, "get_backlinks", `{"entity_name":"Charles Babbage"}`)
	for _, b := range kitData(t, res)["backlinks"].([]any) {
		m := b.(map[string]any)
		ctx, _ := m["context"].(string)
		if m["line"] == nil || !strings.Contains(strings.ToLower(ctx), "babbage") {
			t.Errorf("backlink without its line as context: %v", m)
		}
	}
}
