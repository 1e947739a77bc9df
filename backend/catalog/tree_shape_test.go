package catalog_test

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// TestResultShapes calls every tool of the relation, tree, search and memory families
// once on the demo vault and checks the YAML a model reads: a success, the data key
// the description promises, no null lists, and a size that cannot flood a context.
func TestResultShapes(t *testing.T) {
	reg := kitOpen(t, kitCopy(t, kitDemo))
	tests := []struct{ tool, args, key string }{
		{"list_libraries", `{}`, "libraries:"},
		{"get_children", `{"entity_name":"machines"}`, "children:"},
		{"get_parent", `{"entity_name":"Ada Lovelace"}`, "parent:"},
		{"get_ancestors", `{"entity_name":"ENIAC"}`, "ancestors:"},
		{"get_neighbors", `{"entity_name":"Ada Lovelace","depth":2}`, "neighbors:"},
		{"get_backlinks", `{"entity_name":"Ada Lovelace"}`, "backlinks:"},
		{"find_relations", `{"to_entity":"Analytical Engine"}`, "found_relations:"},
		{"garbage_collect_relations", `{}`, "dangling_relations_found:"},
		{"search_in_names", `{"entity_glob":"*engine*"}`, "entities:"},
		{"search_in_contents", `{"content_glob":"*punched card*"}`, "results:"},
		{"search_anywhere", `{"pattern_glob":"babbage"}`, "matched_in: frontmatter"},
		{"create_relations", `{"relations":[{"from":"Ada Lovelace","to":"Grace Hopper","type":"inspired"}]}`, "created_relations:"},
		{"delete_relations", `{"relations":[{"from":"Ada Lovelace","to":"Grace Hopper","type":"inspired"}]}`, "deleted_relations:"},
		{"memory_notebook_replace", `{"old_text":"","new_text":"- They like tests."}`, "remaining:"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			res := kitCall(t, reg, tc.tool, tc.args)
			kitWant(t, res, tool.StatusSuccess)
			y := res.YAML()
			if !strings.HasPrefix(y, "status: success\nmessage: ") || !strings.Contains(y, tc.key) {
				t.Errorf("YAML lacks %q:\n%s", tc.key, y)
			}
			if strings.Contains(y, ": null") {
				t.Errorf("YAML holds a null:\n%s", y)
			}
			if len(y) > 20000 {
				t.Errorf("YAML is %d bytes", len(y))
			}
		})
	}
}
