package catalog_test

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

// TestBrokenFrontMatterIsNotRewritten: a note whose front matter does not parse is
// refused by the writes that would rewrite its properties, each saying to fix it, and
// keeps its bytes; a link in its body still follows a rename.
func TestBrokenFrontMatterIsNotRewritten(t *testing.T) {
	const broken = "---\r\ntitle: [unclosed\r\n---\r\nSee [[Other]].\r\n"
	h := entNew(t, map[string]string{"Broken.md": broken, "Other.md": "other\n"}, workspace.Options{})
	for _, c := range []struct{ tool, args, says string }{
		{"update_entity", `{"entity_name":"Broken","content":"more","mode":"append"}`, "fix its front matter first"},
		{"update_entity", `{"entity_name":"Broken","tags":["x"]}`, "fix its front matter first"},
		{"create_relations", `{"relations":[{"from":"Broken","to":"Other","type":"cites"}]}`, "fix it by hand first"},
	} {
		res := h.call(c.tool, c.args)
		if !res.IsError() && len(res.Warnings) == 0 || !strings.Contains(res.Message+strings.Join(res.Warnings, " "), c.says) {
			t.Errorf("%s %s = %s %q %v, want a refusal saying %q", c.tool, c.args, res.Status, res.Message, res.Warnings, c.says)
		}
		if got := h.read("Broken.md"); got != broken {
			t.Fatalf("%s changed the broken note: %q", c.tool, got)
		}
	}
	h.ok("rename_entity", `{"old_name":"Other","new_name":"Another"}`)
	if got, want := h.read("Broken.md"), "---\r\ntitle: [unclosed\r\n---\r\nSee [[Another]].\r\n"; got != want {
		t.Errorf("after the rename: %q, want %q", got, want)
	}
}
