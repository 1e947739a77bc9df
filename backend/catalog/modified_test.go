package catalog_test

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/workspace"
)

// modOld is the "date modified" every note of modFixture starts with.
const modOld = "date modified: 2020-01-01T00:00:00Z"

// modFixture holds notes that carry a date modified, one that links to them, and a
// plain note without front matter.
var modFixture = map[string]string{
	"A.md":        "---\nentity type: idea\n" + modOld + "\n---\n\nA links to [[B]].\n",
	"B.md":        "---\n" + modOld + "\nrelations:\n  - relation type: cites\n    relation to: \"[[A]]\"\n---\n\nB body.\n",
	"C.md":        "---\n" + modOld + "\n---\n\nC mentions [[B]] and [[A]].\n",
	"Plain.md":    "Plain mentions [[B]].\n",
	"Source.md":   "---\n" + modOld + "\n---\n\nSource body.\n",
	"folder/D.md": "---\n" + modOld + "\n---\n\nD body.\n",
}

// TestWritesTouchDateModified checks that every tool write that changes a note moves
// its date modified, also in the notes whose links a rename rewrites, and that a note
// without the property does not gain front matter.
func TestWritesTouchDateModified(t *testing.T) {
	cases := []struct {
		tool, args string
		changed    []string // notes whose date modified must move
	}{
		{"edit_entity", `{"entity_name":"A","old_content":"A links","new_content":"A still links"}`, []string{"A.md"}},
		{"create_relations", `{"relations":[{"from":"A","to":"C","type":"cites"}]}`, []string{"A.md"}},
		{"delete_relations", `{"relations":[{"from":"B","to":"A","type":"cites"}]}`, []string{"B.md"}},
		{"rename_entity", `{"old_name":"B","new_name":"B2"}`, []string{"B2.md", "A.md", "C.md"}},
		{"move_entity", `{"entity_name":"folder/D","folder":"elsewhere"}`, []string{"elsewhere/D.md"}},
		{"merge_entities", `{"source_names":["Source"],"target_name":"C"}`, []string{"C.md"}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			h := entNew(t, modFixture, workspace.Options{})
			plain := h.read("Plain.md")
			h.ok(c.tool, c.args)
			for _, name := range c.changed {
				got := h.read(name)
				if strings.Contains(got, modOld) || !strings.Contains(got, "date modified: ") {
					t.Errorf("%s after %s: date modified did not move:\n%s", name, c.tool, got)
				}
			}
			if c.tool == "rename_entity" {
				if got := h.read("Plain.md"); strings.HasPrefix(got, "---") || !strings.Contains(got, "[[B2]]") || got == plain {
					t.Errorf("Plain.md: the link must be rewritten without adding front matter:\n%s", got)
				}
			}
		})
	}
}

// TestUntouchedNotesKeepDateModified checks that a note a write does not change keeps
// its date modified (the touch follows a change, not every call).
func TestUntouchedNotesKeepDateModified(t *testing.T) {
	h := entNew(t, modFixture, workspace.Options{})
	h.ok("edit_entity", `{"entity_name":"A","old_content":"A links","new_content":"A still links"}`)
	for _, name := range []string{"B.md", "C.md", "Source.md"} {
		if !strings.Contains(h.read(name), modOld) {
			t.Errorf("%s changed its date modified though the edit was elsewhere", name)
		}
	}
}
