package catalog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/workspace"
)

// linkForms is a vault whose notes link to a/B.md in every form Obsidian writes.
var linkForms = map[string]string{
	"a/B.md":     "# B\n\n## Part\n\ntext ^blk\n\n[back](Src.md) and [up](../Root.md) and [[../Root|root]]\n",
	"a/Src.md":   "[x](B.md) [[B]] [[B#Part|the part]] [[B#^blk]] ![[B]]\n",
	"a/sub/D.md": "[q](../B.md) [r](<../B.md#Part> \"title\")\n",
	"c/Rel.md":   "[x](../a/B.md) [y](<../a/B.md>) [[../a/B]]\n",
	"a/Dot.md":   "[d](./B.md) [[./B#Part]]\n",
	"Root.md":    "[[a/B]] [w](a/B.md) [v](/a/B.md) [[a/B|display]]\n",
	"c/Code.md":  "`[[a/B]]` and\n\n```\n[x](../a/B.md)\n```\n\n| a | [[a/B\\|B]] |\n|---|---|\n",
	"c/Über.md":  "x\n",
	"c/Enc.md":   "[u](%C3%9Cber.md) [v](Über.md)\n",
}

// TestRelocationKeepsLinkForms moves a/B.md into another folder: every link keeps its
// form (wikilink or Markdown; basename, relative or vault path; display text, heading
// and block; angle brackets and title), relative paths are counted from where each
// note lives, and links inside code are left alone.
func TestRelocationKeepsLinkForms(t *testing.T) {
	h := entNew(t, linkForms, workspace.Options{})
	h.ok("move_entity", `{"entity_name":"a/B","folder":"d/e"}`)
	want := map[string]string{
		"a/Src.md":   "[x](B.md) [[B]] [[B#Part|the part]] [[B#^blk]] ![[B]]\n",
		"a/sub/D.md": "[q](../../d/e/B.md) [r](<../../d/e/B.md#Part> \"title\")\n",
		"c/Rel.md":   "[x](../d/e/B.md) [y](<../d/e/B.md>) [[../d/e/B]]\n",
		"a/Dot.md":   "[d](../d/e/B.md) [[../d/e/B#Part]]\n",
		"Root.md":    "[[d/e/B]] [w](d/e/B.md) [v](/d/e/B.md) [[d/e/B|display]]\n",
		"c/Code.md":  "`[[a/B]]` and\n\n```\n[x](../a/B.md)\n```\n\n| a | [[d/e/B\\|B]] |\n|---|---|\n",
	}
	for name, text := range want {
		if diff := cmp.Diff(text, h.read(name)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	// The moved note's own links: by basename unchanged, relative ones counted from
	// its new folder.
	if got := h.read("d/e/B.md"); !strings.HasSuffix(got, "[back](Src.md) and [up](../../Root.md) and [[../../Root|root]]\n") {
		t.Errorf("the moved note's links:\n%s", got)
	}
	// Every rewritten link resolves to the moved note, as the index reads it back.
	for _, p := range []vpath.Path{"a/Src.md", "a/sub/D.md", "c/Rel.md", "Root.md", "a/Dot.md"} {
		for _, e := range h.graph().Outlinks(p) {
			if e.To != "d/e/B.md" {
				t.Errorf("%s: %q resolves to %q, not the moved note", p, e.Target, e.To)
			}
		}
	}
}

// TestRenameKeepsEncoding renames a note to a name with a space and letters outside
// ASCII: a Markdown link keeps its escaping style (%20 for the space; letters escaped
// only where the old link escaped them).
func TestRenameKeepsEncoding(t *testing.T) {
	h := entNew(t, linkForms, workspace.Options{})
	h.ok("rename_entity", `{"old_name":"c/Über","new_name":"Über Neu"}`)
	if got, want := h.read("c/Enc.md"), "[u](%C3%9Cber%20Neu.md) [v](Über%20Neu.md)\n"; got != want {
		t.Errorf("c/Enc.md = %q, want %q", got, want)
	}
	// A relative path written with "./" keeps it while it does not climb.
	h.ok("rename_entity", `{"old_name":"a/B","new_name":"B 2"}`)
	if got, want := h.read("a/Dot.md"), "[d](./B%202.md) [[./B 2#Part]]\n"; got != want {
		t.Errorf("a/Dot.md = %q, want %q", got, want)
	}
}

// TestMergeLinksToAHeading merges a/B into Root: Markdown links to it point to the
// target's new section by an encoded fragment, wikilinks by a heading with the old
// name as display text.
func TestMergeLinksToAHeading(t *testing.T) {
	h := entNew(t, linkForms, workspace.Options{})
	h.ok("merge_entities", `{"source_names":["a/B"],"target_name":"Root"}`)
	if got, want := h.read("c/Rel.md"), "[x](../Root.md#B) [y](<../Root.md#B>) [[../Root#B|../a/B]]\n"; got != want {
		t.Errorf("c/Rel.md = %q, want %q", got, want)
	}
}

// TestNewRelationsFollowTheLinkFormat: a relation's target is written in the format
// of the vault's .obsidian/app.json (read, never written); without one, or with one
// that cannot be read, by the shortest path, with a warning for the unreadable one.
func TestNewRelationsFollowTheLinkFormat(t *testing.T) {
	for _, c := range []struct {
		app, want, warn string
	}{
		{"", `"[[B]]"`, ""},
		{`{"newLinkFormat":"shortest","useMarkdownLinks":true}`, `"[[B]]"`, ""},
		{`{"newLinkFormat":"relative"}`, `"[[../a/B]]"`, ""},
		{`{"newLinkFormat":"absolute","alwaysUpdateLinks":true}`, `"[[a/B]]"`, ""},
		{`{"newLinkFormat":"absolute",`, `"[[B]]"`, "not valid JSON"},
		{`{"newLinkFormat":"nearest"}`, `"[[B]]"`, "does not know"},
	} {
		files := map[string]string{"a/B.md": "b\n", "c/From.md": "---\ntags: [x]\n---\nfrom\n"}
		if c.app != "" {
			files[".obsidian/app.json"] = c.app
		}
		h := entNew(t, files, workspace.Options{})
		res := h.call("create_relations", `{"relations":[{"from":"c/From","to":"a/B","type":"cites"}]}`)
		if res.IsError() {
			t.Fatalf("app.json %q: %s", c.app, res.Message)
		}
		if got := h.read("c/From.md"); !strings.Contains(got, "relation to: "+c.want+"\n") {
			t.Errorf("app.json %q: c/From.md =\n%s\nwant relation to %s", c.app, got, c.want)
		}
		if warned := strings.Join(res.Warnings, "\n"); c.warn != "" && !strings.Contains(warned, c.warn) || c.warn == "" && warned != "" {
			t.Errorf("app.json %q: warnings %q, want one saying %q", c.app, warned, c.warn)
		}
		res = h.call("create_entity", `{"entity_name":"c/New","relations":[{"type":"cites","to":"B"}]}`)
		if got := h.read("c/New.md"); res.IsError() || !strings.Contains(got, "relation to: "+c.want+"\n") {
			t.Errorf("app.json %q: create_entity wrote\n%s\n(%s)", c.app, got, res.Message)
		}
		if c.app != "" {
			if b, err := os.ReadFile(filepath.Join(h.dir, ".obsidian", "app.json")); err != nil || string(b) != c.app {
				t.Errorf("app.json changed: %q, %v", b, err)
			}
		}
	}
}

// TestRelocationKeepsDestinationsWhole moves notes whose Markdown links are written
// with what CommonMark allows in a destination: balanced parentheses in the path,
// blanks around it, a title holding a parenthesis. Only the path changes; the link
// keeps every other byte and still resolves.
func TestRelocationKeepsDestinationsWhole(t *testing.T) {
	h := entNew(t, map[string]string{
		"a/B (1).md": "b1\n",
		"a/B.md":     "b\n",
		"Src.md": "[p](a/B%20(1).md) [q](<a/B (1).md>)\n" +
			"[s]( a/B.md ) [t](a/B.md \"ti)tle\") [u](a/B.md#Part) [v](\ta/B.md\t'x')\n",
	}, workspace.Options{})
	h.ok("move_entity", `{"entity_name":"a/B (1)","folder":"z"}`)
	h.ok("move_entity", `{"entity_name":"a/B","folder":"y"}`)
	want := "[p](z/B%20%281%29.md) [q](<z/B (1).md>)\n" +
		"[s]( y/B.md ) [t](y/B.md \"ti)tle\") [u](y/B.md#Part) [v](\ty/B.md\t'x')\n"
	if got := h.read("Src.md"); got != want {
		t.Errorf("Src.md after the moves:\n got %q\nwant %q", got, want)
	}
	for _, e := range h.graph().Outlinks("Src.md") {
		if e.To != "z/B (1).md" && e.To != "y/B.md" {
			t.Errorf("%q resolves to %q, not a moved note", e.Target, e.To)
		}
	}
}
