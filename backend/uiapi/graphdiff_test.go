package uiapi_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/internal/wait"
)

// A change set's notes as the last commit has them: a note edited since keeps its
// old edges (one of them to a note deleted since, now unresolved), a new note did
// not exist, a deleted one did; outside git every note is new.
func TestGraphBefore(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Ada.md":     "---\nrelations:\n  - relation type: collaborator of\n    relation to: \"[[Charles]]\"\n---\nSee [[Charles]] and [[Old]] and [[Ghost]].\n",
		"Charles.md": "Hello.\n",
		"Old.md":     "Soon gone.\n",
	})
	a, _ := openAPI(t, dir)
	nb, err := a.GraphBefore("v", []string{"Ada.md"})
	if err != nil || len(nb) != 1 || nb[0].Existed || len(nb[0].Edges) != 0 {
		t.Fatalf("outside git, a note has no before: %+v %v", nb, err)
	}

	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "first")
	if err := os.WriteFile(filepath.Join(dir, "Ada.md"), []byte("Now only [[New]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"New.md": "A new note, [[Ada]].\n"})
	if err := os.Remove(filepath.Join(dir, "Old.md")); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "New.md to be readable", func() bool { _, err := a.Note("v", "New.md"); return err == nil })
	wait.For(t, "Old.md to leave the graph", func() bool { g, _ := a.Graph("v"); return !slices.Contains(g.Nodes, "Old.md") })

	nb, err = a.GraphBefore("v", []string{"Ada.md", "New.md", "Old.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := []uiapi.NoteBefore{
		{Path: "Ada.md", Existed: true, Edges: []uiapi.EdgeBefore{
			{To: "Charles.md", Relation: "links to"},
			{To: "unresolved:Old", Relation: "links to"},
			{To: "unresolved:Ghost", Relation: "links to"},
			{To: "Charles.md", Relation: "collaborator of"},
		}},
		{Path: "New.md", Existed: false, Edges: []uiapi.EdgeBefore{}},
		{Path: "Old.md", Existed: true, Edges: []uiapi.EdgeBefore{}},
	}
	if d := cmp.Diff(want, nb); d != "" {
		t.Errorf("before (-want +got):\n%s", d)
	}
	// A change set may hold files git reports outside the graph: a note Obsidian moved
	// to its .trash, its settings. They have no place in the graph, and no before.
	nb, err = a.GraphBefore("v", []string{".trash/Old.md", ".obsidian/workspace.md", "Ada.md"})
	if err != nil || len(nb) != 3 || nb[0].Existed || nb[1].Existed || !nb[2].Existed {
		t.Errorf("a change set with Obsidian's trash and settings: %+v, %v", nb, err)
	}
	if _, err := a.GraphBefore("v", []string{"../outside.md"}); err == nil {
		t.Error("a path leaving the vault is refused")
	}
	if _, err := a.GraphBefore("v", make([]string, uiapi.MaxGraphBefore+1)); err == nil {
		t.Error("too many notes at once are refused")
	}
}

// Tags and attachments travel with the graph: a table of tags with (node, tag) pairs,
// and the files notes link to that are not notes, between the notes and the
// unresolved names.
func TestGraphTagsAndAttachments(t *testing.T) {
	a := apiWith(t, map[string]string{
		"Ada.md":           "---\ntags: [history, people/women]\n---\n![[portrait.png]] #math\n",
		"Charles.md":       "#history [[Ghost]]\n",
		"img/portrait.png": "png",
	})
	g, err := a.Graph("v")
	if err != nil {
		t.Fatal(err)
	}
	if g.FirstAttachment != 2 || g.FirstUnresolved != 3 || g.Nodes[2] != "img/portrait.png" || g.Labels[2] != "portrait.png" {
		t.Errorf("notes, then attachments, then unresolved: %q first attachment %d, first unresolved %d", g.Nodes, g.FirstAttachment, g.FirstUnresolved)
	}
	tags := map[string][]string{}
	for i := 0; i+1 < len(g.NoteTags); i += 2 {
		tags[g.Nodes[g.NoteTags[i]]] = append(tags[g.Nodes[g.NoteTags[i]]], g.Tags[g.NoteTags[i+1]])
	}
	for _, v := range tags {
		slices.Sort(v)
	}
	if d := cmp.Diff(map[string][]string{"Ada.md": {"history", "math", "people/women"}, "Charles.md": {"history"}}, tags); d != "" {
		t.Errorf("tags (-want +got):\n%s", d)
	}
}
