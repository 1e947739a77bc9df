package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
)

// writeObsidianSettings puts an Obsidian settings folder in vault, as Obsidian leaves
// one: the app's settings, the graph's, a plugin's data and the workspace layout.
func writeObsidianSettings(t testing.TB, vault string) {
	t.Helper()
	for name, content := range map[string]string{
		".obsidian/app.json":                   `{"useMarkdownLinks": false, "newLinkFormat": "shortest"}` + "\n",
		".obsidian/graph.json":                 `{"colorGroups": [{"query": "tag:#people", "color": {"a": 1, "rgb": 14701138}}]}` + "\n",
		".obsidian/workspace.json":             `{"main": {"id": "x"}, "lastOpenFiles": ["Welcome.md"]}` + "\n",
		".obsidian/plugins/dataview/data.json": `{"renderNullAs": "-"}` + "\n",
	} {
		p := filepath.Join(vault, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestObsidianSettingsAreNeverWritten: a working session on an Obsidian vault — notes
// created, edited, renamed deep, moved, merged, related and deleted, the canvas
// expanded, a script, a repository created and committed, the vault closed and opened
// again — leaves every file under .obsidian as it was, its bytes and its time; and a
// write aimed at .obsidian is refused.
func TestObsidianSettingsAreNeverWritten(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	writeNotes(t, dir, map[string]string{
		"Welcome.md":        "# Welcome\n\nSee [[Ada]] and [[Charles]].\n",
		"people/Ada.md":     "---\ntags: [people]\n---\n# Ada\n\nWorked with [[Charles]].\n",
		"people/Charles.md": "# Charles\n",
	})
	writeObsidianSettings(t, dir)
	past := time.Now().Add(-time.Hour)
	filepath.Walk(filepath.Join(dir, ".obsidian"), func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, past, past) })
	before := listTree(t, filepath.Join(dir, ".obsidian"))

	o := Options{Watch: true, Background: true, OutsideCaches: true, Debounce: 10 * time.Millisecond}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, o)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"create_entity", map[string]any{"entity_name": "ideas/Engine", "content": "Links to [[Ada]].", "tags": []string{"idea"}}},
		{"update_entity", map[string]any{"entity_name": "Ada", "content": "\nMore.\n", "mode": "append"}},
		{"create_relations", map[string]any{"relations": []map[string]string{{"from": "Ada", "to": "Charles", "type": "collaborator of"}}}},
		{"rename_entity", map[string]any{"old_name": "Charles", "new_name": "Charles Babbage"}},
		{"move_entity", map[string]any{"entity_name": "ideas/Engine", "folder": "machines"}},
		{"expand_node", map[string]any{"entity_name": "people/", "level": "summary"}},
		{"search_nodes", map[string]any{"query": "Ada"}},
		{"run_starlark", map[string]any{"target": "tag", "code": `__result__ = create_entity(entity_name="Scratch", content="x")`}},
		{"merge_entities", map[string]any{"source_names": []string{"Scratch"}, "target_name": "Welcome"}},
		{"delete_entities", map[string]any{"entity_names": []string{"machines/Engine"}}},
		{"memory_notebook_replace", map[string]any{"old_text": "", "new_text": "I keep notes here."}},
	}
	for _, s := range steps {
		// A search is here to build and save the index; whether it finds the note is
		// search's own tests' business.
		if r := call(t, ws, s.tool, s.args); r.IsError() && s.tool != "search_nodes" {
			t.Errorf("%s: %+v", s.tool, r)
		}
	}
	for _, target := range []string{".obsidian/app", ".obsidian/workspace.json"} {
		if r := call(t, ws, "create_entity", map[string]any{"entity_name": target, "content": "x"}); !r.IsError() {
			t.Errorf("create_entity %s was not refused: %+v", target, r)
		}
	}
	l, _ := ws.Library("v")
	r, err := l.InitGit(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all", Author: &gitrepo.Signature{Name: "t", Email: "t@invalid"}}); err != nil {
		t.Fatal(err)
	}
	if err := ws.Unmount("v"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Mount(t.Context(), Spec{Name: "v", Path: dir}); err != nil {
		t.Fatal(err)
	}
	call(t, ws, "search_nodes", map[string]any{"query": "Babbage"}) // the index again, after reopening
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "people", "Charles Babbage.md")); err != nil {
		t.Fatalf("the session did not run: %v", err)
	}
	if after := listTree(t, filepath.Join(dir, ".obsidian")); !equalLists(before, after) {
		t.Errorf(".obsidian changed:\nbefore %v\nafter  %v", before, after)
	}
}

func equalLists(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// WriteObsidianSettings is writeObsidianSettings for the package's external tests.
var WriteObsidianSettings = writeObsidianSettings
