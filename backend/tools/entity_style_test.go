package tools_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/workspace"
)

// crlfNote has a BOM, CRLF line endings, no final line break, and a date with an
// offset.
const crlfNote = "\ufeff---\r\ndate modified: 2025-10-27T09:12:00+08:00\r\ntags: [x]\r\n---\r\n\r\n# Crlf\r\n\r\nBody with [[Other]] and [o](Other.md)"

// TestWritesKeepTheNotesConventions runs every kind of write on a note with a BOM,
// CRLF line endings and no final line break: after each, the bytes still have the BOM,
// only CRLF, no final line break, and the date keeps its format.
func TestWritesKeepTheNotesConventions(t *testing.T) {
	h := entNew(t, map[string]string{"Crlf.md": crlfNote, "Other.md": "other\n", "Third.md": "# Third\n\nthird's body\nsecond line\n"}, workspace.Options{})
	offset := regexp.MustCompile(`date modified: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)\r\n`)
	check := func(step string) {
		t.Helper()
		b := h.read("Crlf.md")
		switch {
		case !strings.HasPrefix(b, "\ufeff"):
			t.Errorf("%s: the BOM is gone:\n%q", step, b)
		case regexp.MustCompile(`(^|[^\r])\n`).MatchString(b):
			t.Errorf("%s: a bare LF in a CRLF note:\n%q", step, b)
		case strings.HasSuffix(b, "\n"):
			t.Errorf("%s: a final line break appeared:\n%q", step, b)
		case !offset.MatchString(b):
			t.Errorf("%s: date modified lost its format:\n%q", step, b)
		}
		if n := note.Parse([]byte(b)); len(n.Warnings) > 0 {
			t.Errorf("%s: the note reads with warnings %v:\n%q", step, n.Warnings, b)
		}
	}
	for _, c := range []struct{ tool, args string }{
		{"update_entity", `{"entity_name":"Crlf","content":"line one\nline two","mode":"append"}`},
		{"update_entity", `{"entity_name":"Crlf","content":"first\n","mode":"prepend"}`},
		{"update_entity", `{"entity_name":"Crlf","tags":["y"]}`},
		{"edit_entity", `{"entity_name":"Crlf","old_content":"line one\nline two","new_content":"line 1\nline 2\n"}`},
		{"create_relations", `{"relations":[{"from":"Crlf","to":"Other","type":"cites"}]}`},
		{"delete_relations", `{"relations":[{"from":"Crlf","to":"Other","type":"cites"}]}`},
		{"rename_entity", `{"old_name":"Other","new_name":"Other 名前 ✓"}`},
		{"merge_entities", `{"source_names":["Third"],"target_name":"Crlf"}`},
		{"update_entity", `{"entity_name":"Crlf","content":"replaced\nbody","mode":"replace"}`},
	} {
		h.ok(c.tool, c.args)
		check(c.tool + " " + c.args)
	}
	if got := h.read("Crlf.md"); !strings.HasSuffix(got, "\r\n\r\nreplaced\r\nbody") {
		t.Errorf("the last body: %q", got)
	}
	// Moved: a link of its own that resolved relative to its folder is rewritten.
	h.ok("edit_entity", `{"entity_name":"Crlf","old_content":"body","new_content":"body, see [o](./Other%20名前%20✓.md)"}`)
	h.ok("move_entity", `{"entity_name":"Crlf","folder":"sub"}`)
	got := h.read("sub/Crlf.md")
	if !strings.HasPrefix(got, "\ufeff") || regexp.MustCompile(`(^|[^\r])\n`).MatchString(got) || strings.HasSuffix(got, "\n") ||
		!strings.HasSuffix(got, "body, see [o](../Other%20名前%20✓.md)") || !strings.Contains(got, "date modified: ") {
		t.Errorf("after the move: %q", got)
	}
}
