package catalog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
)

// entHostileNames are names no tool may act on outside the vault's content.
var entHostileNames = []string{
	"../x", "../outside", "/etc/passwd", ".git/config", ".obsidian/app", ".memotree/x",
	"people/../../x", `..\x`, "a\x00b", strings.Repeat("n", 5000),
}

// entHostileTools places a hostile value in each tool's arguments.
var entHostileTools = map[string][]func(v string) map[string]any{
	"create_entity": {func(v string) map[string]any { return map[string]any{"entity_name": v, "content": "x"} }},
	"add_entities": {func(v string) map[string]any {
		return map[string]any{"entities": []any{map[string]any{"entity_name": v}}}
	}},
	"read_entities":    {func(v string) map[string]any { return map[string]any{"entity_names": []string{v}} }},
	"list_entities":    {func(v string) map[string]any { return map[string]any{"entity_glob": v} }},
	"get_entities_toc": {func(v string) map[string]any { return map[string]any{"entity_names": []string{v}} }},
	"update_entity": {func(v string) map[string]any {
		return map[string]any{"entity_name": v, "content": "x", "mode": "replace"}
	}},
	"edit_entity": {func(v string) map[string]any {
		return map[string]any{"entity_name": v, "old_content": "a", "new_content": "b"}
	}},
	"delete_entities": {func(v string) map[string]any { return map[string]any{"entity_names": []string{v}} }},
	"rename_entity": {
		func(v string) map[string]any { return map[string]any{"old_name": v, "new_name": "Fine"} },
		func(v string) map[string]any { return map[string]any{"old_name": "Engine", "new_name": v} },
		func(v string) map[string]any { return map[string]any{"old_name": "Ada", "new_name": v} },
	},
	"move_entity": {
		func(v string) map[string]any { return map[string]any{"entity_name": v, "folder": "x"} },
		func(v string) map[string]any { return map[string]any{"entity_name": "Engine", "folder": v} },
	},
	"merge_entities": {
		func(v string) map[string]any {
			return map[string]any{"source_names": []string{v}, "target_name": "Engine"}
		},
		func(v string) map[string]any {
			return map[string]any{"source_names": []string{"Engine"}, "target_name": v}
		},
	},
	"read_manual": {func(v string) map[string]any { return map[string]any{"library_name": v} }},
	"edit_manual_section": {func(v string) map[string]any {
		return map[string]any{"library_name": v, "old_content": "# Manual", "new_content": "x"}
	}},
	"add_manual_section": {func(v string) map[string]any {
		return map[string]any{"library_name": v, "toc": "T", "new_content": "x"}
	}},
}

// entBadCalls are calls with wrong types, missing fields or impossible requests.
var entBadCalls = []struct{ tool, args string }{
	{"create_entity", `{}`}, {"create_entity", `{"entity_name":5}`}, {"create_entity", `{"entity_name":"Engine"}`},
	{"create_entity", `{"entity_name":"N","relations":[{"type":"t"}]}`}, {"create_entity", `{"entity_name":"N","tags":"a"}`},
	{"create_entity", `{"entity_name":"a|b"}`}, {"create_entity", `{"entity_name":"a[[b]]"}`}, {"create_entity", `{"entity_name":"x\ny"}`},
	{"rename_entity", `{"old_name":"Engine","new_name":"E#1"}`}, {"move_entity", `{"entity_name":"Engine","folder":"a^b"}`},
	{"add_entities", `{}`}, {"add_entities", `{"entities":{}}`}, {"add_entities", `{"entities":[]}`},
	{"read_entities", `{}`}, {"read_entities", `{"entity_names":"Engine"}`}, {"read_entities", `{"entity_names":[]}`},
	{"list_entities", `{}`}, {"list_entities", `{"entity_glob":["*"]}`}, {"list_entities", `{"entity_glob":"[abc"}`},
	{"get_entities_toc", `{}`}, {"get_entities_toc", `{"entity_names":[1]}`},
	{"update_entity", `{}`}, {"update_entity", `{"entity_name":"Engine","mode":"sideways"}`},
	{"update_entity", `{"entity_name":"Engine","mode":"append"}`}, {"update_entity", `{"entity_name":"Engine","content":"---\na: 1\n---\n"}`},
	{"update_entity", `{"entity_name":"Engine","tags":"x"}`},
	{"edit_entity", `{}`}, {"edit_entity", `{"entity_name":"Engine","old_content":"not in the note","new_content":"x"}`},
	{"edit_entity", `{"entity_name":"Engine","old_content":"Engine","new_content":"x","expected_count":7}`},
	{"edit_entity", `{"entity_name":"Engine","old_content":"","new_content":"x"}`},
	{"edit_entity", `{"entity_name":"Engine","old_content":"x","new_content":"y","expected_count":"1"}`},
	{"delete_entities", `{}`}, {"delete_entities", `{"entity_names":"Engine"}`},
	{"rename_entity", `{}`}, {"rename_entity", `{"old_name":"Engine"}`}, {"rename_entity", `{"old_name":"Engine","new_name":"people/Ada Lovelace"}`},
	{"rename_entity", `{"old_name":"Engine","new_name":"Engine"}`}, {"rename_entity", `{"old_name":"Engine","new_name":""}`},
	{"move_entity", `{}`}, {"move_entity", `{"entity_name":"Engine","folder":3}`}, {"move_entity", `{"entity_name":"Engine","folder":""}`},
	{"merge_entities", `{}`}, {"merge_entities", `{"source_names":["Engine"],"target_name":"Engine"}`},
	{"merge_entities", `{"source_names":[],"target_name":"Engine"}`}, {"merge_entities", `{"source_names":["Engine","Nobody"],"target_name":"Ada"}`},
	{"read_manual", `{"library_name":5}`},
	{"edit_manual_section", `{}`}, {"edit_manual_section", `{"old_content":"absent text","new_content":"x"}`},
	{"add_manual_section", `{}`}, {"add_manual_section", `{"toc":"","new_content":"x"}`}, {"add_manual_section", `{"toc":"T","new_content":" "}`},
	{"add_manual_section", `{"toc":"a\nb","new_content":"x"}`},
}

// entProbe is a vault whose ignored folders hold notes that must never be read or
// written, with a file beside the vault.
func entProbe(t *testing.T) *entHarness {
	files := map[string]string{".git/config.md": "secret", ".obsidian/app.md": "secret", ".memotree/x.md": "secret", ".trash/t.md": "secret"}
	for k, v := range entFixture {
		files[k] = v
	}
	h := entNew(t, files, workspace.Options{})
	entWrite(t, filepath.Join(h.parent, "outside.md"), "outside")
	entWrite(t, filepath.Join(h.parent, "x.md"), "outside")
	return h
}

func TestEntityHostileArguments(t *testing.T) {
	h := entProbe(t)
	// A refused write may have taken the vault lock, which creates MemoTree's lock file
	// once: take it before the snapshot, so that the lock file is not taken for a change.
	v, err := vault.Open(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := v.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	v.Close()
	vaultBefore, parentBefore := entTree(t, h.dir), entListing(t, h.parent)
	calls := 0
	defer func() { t.Logf("%d hostile calls, vault and its parent unchanged", calls) }()
	check := func(name, args string) {
		t.Helper()
		calls++
		res := h.call(name, args)
		if !res.IsError() {
			t.Errorf("%s(%.200s) = %s: %s; want an error result", name, args, res.Status, res.Message)
		}
		if strings.Contains(res.Message, "secret") || strings.Contains(string(res.JSON()), "secret") {
			t.Errorf("%s(%.200s) leaked ignored content", name, args)
		}
		if diff := cmp.Diff(vaultBefore, entTree(t, h.dir)); diff != "" {
			t.Fatalf("%s(%.200s) changed the vault (-before +after):\n%s", name, args, diff)
		}
		if diff := cmp.Diff(parentBefore, entListing(t, h.parent)); diff != "" {
			t.Fatalf("%s(%.200s) wrote beside the vault (-before +after):\n%s", name, args, diff)
		}
	}
	for name, builders := range entHostileTools {
		for _, b := range builders {
			for _, v := range entHostileNames {
				args, err := json.Marshal(b(v))
				if err != nil {
					t.Fatal(err)
				}
				check(name, string(args))
			}
		}
	}
	for _, c := range entBadCalls {
		check(c.tool, c.args)
	}
}

// entListing lists the names directly in dir.
func entListing(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestEntityToolClasses(t *testing.T) {
	h := entNew(t, entFixture, workspace.Options{})
	want := map[string]string{
		"read_manual": "read_only", "edit_manual_section": "write", "add_manual_section": "write",
		"create_entity": "write", "add_entities": "write", "read_entities": "read_only", "list_entities": "read_only",
		"get_entities_toc": "read_only", "update_entity": "write", "edit_entity": "write",
		"delete_entities": "destructive", "rename_entity": "write", "move_entity": "write", "merge_entities": "destructive",
	}
	got := map[string]string{}
	for name := range want {
		tl, ok := h.reg.Get(name)
		if !ok {
			t.Errorf("%s is not registered", name)
			continue
		}
		got[name] = tl.Class().String()
		if !strings.Contains(tl.Description(), name+"(") {
			t.Errorf("%s: the description has no example call", name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
}
