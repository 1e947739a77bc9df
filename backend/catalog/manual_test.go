package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

func TestReadManual(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	d := h.ok("read_manual", `{}`)
	if d["content"] != entFixture["meta.md"] || d["hash"] == "" {
		t.Errorf("data = %v", d)
	}
	h2 := entNew(t, map[string]string{"x.md": "x"}, workspace.Options{})
	res := h2.call("read_manual", `{}`)
	if res.ErrorCode != tool.CodeNotFound || !strings.Contains(res.Message, "add_manual_section") {
		t.Errorf("absent manual = %s %s", res.ErrorCode, res.Message)
	}
}

func TestEditManualSection(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	h.ok("edit_manual_section", `{"old_content":"- collaborator of\n","new_content":"- collaborator of (person → person)\n"}`)
	want := strings.Replace(entFixture["meta.md"], "- collaborator of\n", "- collaborator of (person → person)\n", 1)
	if diff := cmp.Diff(want, h.read("meta.md")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		args string
		code tool.Code
	}{
		{`{"old_content":"- nothing like this","new_content":"x"}`, tool.CodeNoMatch},
		{`{"old_content":"- p","new_content":"x"}`, tool.CodeCountMismatch},
		{`{"old_content":"","new_content":"x"}`, tool.CodeInvalidArguments},
	} {
		if res := h.call("edit_manual_section", tc.args); res.ErrorCode != tc.code {
			t.Errorf("%s = %s %s, want %s", tc.args, res.ErrorCode, res.Message, tc.code)
		}
	}
}

func TestAddManualSection(t *testing.T) {
	for _, tc := range []struct {
		name, start, toc, add, want string
	}{
		{"existing section", entFixture["meta.md"], "Entity types", "- place",
			"# Manual\n\n## Entity types\n\n- person\n- project\n\n- place\n\n## Relation vocabulary\n\n- collaborator of\n"},
		{"last section, # ignored", entFixture["meta.md"], "## relation vocabulary", "- mentored by\n",
			entFixture["meta.md"] + "\n- mentored by\n"},
		{"new section", entFixture["meta.md"], "Templates", "Person: name, dates.",
			entFixture["meta.md"] + "\n## Templates\n\nPerson: name, dates.\n"},
		{"no manual yet", "", "Entity types", "- person",
			"## Entity types\n\n- person\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"x.md": "x\n"}
			if tc.start != "" {
				files["meta.md"] = tc.start
			}
			h := entNew(t, files, workspace.Options{})
			h.ok("add_manual_section", `{"toc":"`+tc.toc+`","new_content":"`+strings.ReplaceAll(tc.add, "\n", `\n`)+`"}`)
			if diff := cmp.Diff(tc.want, h.read("meta.md")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
