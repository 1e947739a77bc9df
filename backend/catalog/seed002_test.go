package catalog_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
)

// TestSeedResultNames: a client written from seed 002 finds its result keys
// (created_entities, deleted_entities, target_entity and merged_sources) beside ours,
// and one written from seed 000 may leave git_checkout's confirmed out: it defaults to
// false, which discards nothing. See docs/SEEDS.md.
func TestSeedResultNames(t *testing.T) {
	h := gitHarness(t)
	d := h.ok("add_entities", `{"entities":[{"entity_name":"projects/A"},{"entity_name":"projects/B"}]}`)
	if diff := cmp.Diff(map[string]any{"created": []any{"projects/A", "projects/B"}, "created_entities": []any{"projects/A", "projects/B"}}, d); diff != "" {
		t.Errorf("add_entities (-want +got):\n%s", diff)
	}
	d = h.ok("merge_entities", `{"source_names":["projects/B"],"target_name":"projects/A"}`)
	want := map[string]any{"target": "projects/A", "target_entity": "projects/A", "merged": []any{"projects/B"},
		"merged_sources": []any{"projects/B"}, "rewritten": []any{}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("merge_entities (-want +got):\n%s", diff)
	}
	d = h.ok("delete_entities", `{"entity_names":["projects/A"]}`)
	if diff := cmp.Diff(map[string]any{"deleted": []any{"projects/A"}, "deleted_entities": []any{"projects/A"}}, d); diff != "" {
		t.Errorf("delete_entities (-want +got):\n%s", diff)
	}
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "# Engine\n\nrevised\n")
	res := h.call("git_checkout", `{"entity_names":["Engine"]}`)
	if res.ErrorCode != tool.CodeConfirmationRequired {
		t.Errorf("git_checkout without confirmed = %s %q, want confirmation_required", res.ErrorCode, res.Message)
	}
	if got := h.read("Engine.md"); got != "# Engine\n\nrevised\n" {
		t.Errorf("git_checkout without confirmed discarded the change: %q", got)
	}
}
