package workspace_test

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

// Every name a tool creates — create, add, rename, move, the page tools — refuses a
// character a person cannot see or sees as something else (C1 controls, zero-width
// and direction-changing characters), naming it, and writes nothing. A note that
// already has such a name is found, read, listed and renamed away as any other.
func TestHiddenCharactersInNewNames(t *testing.T) {
	existing := "people/Eve\u202eredwop.md"
	dir, reg := namesVault(t, map[string]string{existing: "# Eve\n"})
	before := snapshot(t, dir)
	for _, tt := range []struct{ name, words string }{
		{"invoice\u202efdp.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"people/Ada\u0085Lovelace", "U+0085 NEXT LINE"},
		{"Ad\u200ba", "U+200B ZERO WIDTH SPACE"},
		{"\u2066Ada\u2069", "U+2066 LEFT-TO-RIGHT ISOLATE"},
		{"Ada\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
		{"Ada\u200fx", "U+200F RIGHT-TO-LEFT MARK"},
	} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"create_entity", map[string]any{"entity_name": tt.name, "content": "x"}},
			{"rename_entity", map[string]any{"old_name": "Welcome", "new_name": tt.name}},
			{"move_entity", map[string]any{"entity_name": "Welcome", "folder": tt.name}},
			{"create_detail_page", map[string]any{"name": strings.ReplaceAll(tt.name, "/", " "), "parent_index": "demo:/"}},
			{"create_contents_page", map[string]any{"name": strings.ReplaceAll(tt.name, "/", " "), "parent_index": "demo:/", "children": []string{}}},
		} {
			r := call(t, reg, c.tool, c.args)
			if r.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(r.Message, tt.words) {
				t.Errorf("%s %q: %s %s, want invalid_arguments naming %q", c.tool, tt.name, r.ErrorCode, r.Message, tt.words)
			}
		}
		r := call(t, reg, "add_entities", map[string]any{"entities": []map[string]any{{"entity_name": tt.name}}})
		if !strings.Contains(r.Message+strings.Join(r.Warnings, " "), tt.words) || !r.IsError() && r.Status != tool.StatusPartial {
			t.Errorf("add_entities %q: %s %s %v, want it refused naming %q", tt.name, r.Status, r.Message, r.Warnings, tt.words)
		}
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("a refused name changed the vault")
	}
	// The note that has such a name already is read and renamed as any other.
	if r := call(t, reg, "read_entities", map[string]any{"entity_names": []string{strings.TrimSuffix(existing, ".md")}}); r.IsError() {
		t.Errorf("read_entities of the existing %q: %s", existing, r.Message)
	}
	if r := call(t, reg, "rename_entity", map[string]any{"old_name": strings.TrimSuffix(existing, ".md"), "new_name": "people/Eve"}); r.IsError() {
		t.Errorf("rename_entity of the existing %q to a plain name: %s", existing, r.Message)
	}
	if got := readFile(t, dir, "people/Eve.md"); !strings.Contains(got, "# Eve") {
		t.Errorf("people/Eve.md = %q after the rename", got)
	}
}
