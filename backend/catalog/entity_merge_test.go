package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/workspace"
)

// TestMergeDeduplicatesRelations: a merge re-points relations to the merged notes at
// the target; where that makes a note hold one relation twice (cites → Target from
// cites → Target and cites → Src), or the target a relation to itself, the repeat is
// dropped, as create_relations refuses a duplicate, with a warning. Other relations
// stay as they were written.
func TestMergeDeduplicatesRelations(t *testing.T) {
	files := map[string]string{
		"Target.md": "---\nrelations:\n  - relation type: cites\n    relation to: \"[[Src]]\"\n  - relation type: cites\n    relation to: \"[[B]]\"\n---\nTarget body.\n",
		"Src.md":    "---\nrelations:\n  - relation type: cites\n    relation to: \"[[B]]\"\n  - relation type: answers\n    relation to: \"[[Target]]\"\n---\nSource body.\n",
		"B.md":      "b\n",
		"X.md": "---\nrelations:\n  - relation type: cites\n    relation to: \"[[Target]]\"\n  - relation type: Cites\n    relation to: \"[[Src]]\"\n" +
			"  - relation type: extends\n    relation to: \"[[Src]]\"\n  - relation type: cites\n    relation to: \"[[B]]\"\n---\nX body.\n",
		"Y.md": "---\nrelations: [{relation type: cites, relation to: \"[[Src]]\"}, {relation type: cites, relation to: \"[[Target]]\"}]\n---\nY body.\n",
	}
	h := entNew(t, files, workspace.Options{})
	res := h.call("merge_entities", `{"source_names":["Src"],"target_name":"Target"}`)
	if res.IsError() {
		t.Fatalf("merge: %s", res.Message)
	}
	want := map[string]string{
		"Target.md": "---\nrelations:\n  - relation type: cites\n    relation to: \"[[B]]\"\naliases:\n  - Src\n---\nTarget body.\n\n## Src\n\nSource body.\n",
		"X.md": "---\nrelations:\n  - relation type: cites\n    relation to: \"[[Target]]\"\n" +
			"  - relation type: extends\n    relation to: \"[[Target]]\"\n  - relation type: cites\n    relation to: \"[[B]]\"\n---\nX body.\n",
		"Y.md": "---\nrelations: [{relation type: cites, relation to: \"[[Target]]\"}]\n---\nY body.\n",
	}
	for name, text := range want {
		if d := cmp.Diff(text, h.read(name)); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
	warned := strings.Join(res.Warnings, "\n")
	for _, w := range []string{"X: dropped 1 relation", "Y: dropped 1 relation", "Target: dropped 1 relation"} {
		if !strings.Contains(warned, w) {
			t.Errorf("warnings lack %q:\n%s", w, warned)
		}
	}
	d := h.ok("find_relations", `{"to_entity":"Target"}`)
	seen := map[string]bool{}
	for _, r := range d["found_relations"].([]any) {
		m := r.(map[string]any)
		k := strings.ToLower(m["from"].(string) + "|" + m["type"].(string))
		if seen[k] {
			t.Errorf("find_relations lists %v twice", m)
		}
		seen[k] = true
	}
}
