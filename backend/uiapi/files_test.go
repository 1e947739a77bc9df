package uiapi

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// lazyDemo opens a copy of the demo vault as a lazy library, "demo", not yet read.
func lazyDemo(t *testing.T) (*workspace.Workspace, *API) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, NewAPI(ws, Options{})
}

// The window's first calls, the libraries and the file tree, answer from the folder
// while a library has not been read yet (a large vault's scan runs in the background):
// the same files as once it has, without their types, and without reading a note.
func TestFilesBeforeTheScan(t *testing.T) {
	ws, a := lazyDemo(t)
	libs, err := a.Libraries()
	if err != nil {
		t.Fatal(err)
	}
	earlyList, err := a.Files("demo")
	if err != nil {
		t.Fatal(err)
	}
	early := earlyList.Entries()
	l, _ := ws.Library("demo")
	if l.Scanned() {
		t.Fatal("listing the files read the whole library")
	}
	g, err := l.Graph(t.Context()) // the scan
	if err != nil {
		t.Fatal(err)
	}
	lateList, err := a.Files("demo")
	if err != nil {
		t.Fatal(err)
	}
	late := lateList.Entries()
	typed := 0
	for i := range late {
		if late[i].EntityType != "" {
			typed++
		}
		late[i].EntityType = ""
	}
	if typed == 0 {
		t.Error("the files listed after the scan have no types")
	}
	if d := cmp.Diff(late, early); d != "" {
		t.Errorf("files from the folder differ from files from the graph (-graph +folder):\n%s", d)
	}
	if got, want := libs[0].Notes, len(g.Notes()); got != want {
		t.Errorf("Libraries counted %d notes before the scan, the graph holds %d", got, want)
	}
}

// A note opened while its library is being read shows at once, marked partial (no
// links resolved, no backlinks), and in full once the scan, which it starts if
// nothing had, has ended.
func TestNoteBeforeTheScan(t *testing.T) {
	ws, a := lazyDemo(t)
	const p = "places/Bletchley Park.md"
	early, err := a.Note("demo", p)
	if err != nil {
		t.Fatal(err)
	}
	if !early.Partial || len(early.Links) != 0 || len(early.Backlinks) != 0 {
		t.Fatalf("a note read before the scan: partial %v, %d links, %d backlinks; want partial, none", early.Partial, len(early.Links), len(early.Backlinks))
	}
	l, _ := ws.Library("demo")
	if _, err := l.Graph(t.Context()); err != nil { // the scan the call started, or a new one
		t.Fatal(err)
	}
	late, err := a.Note("demo", p)
	if err != nil {
		t.Fatal(err)
	}
	if late.Partial || len(late.Links) == 0 || late.Links[0].Resolved == "" {
		t.Fatalf("the note after the scan: partial %v, links %+v; want its links resolved", late.Partial, late.Links)
	}
	if late.Content != early.Content || late.Hash != early.Hash || late.EntityType != early.EntityType {
		t.Error("the partial note's text, hash or type differ from the full one's")
	}
}

// The compact list reads back as the files it was made of: attachments, typed and
// untyped notes, in order, each type written once.
func TestFileListEntries(t *testing.T) {
	b := newFileList(4)
	b.add("a/Ada.md", "person")
	b.add("a/photo.png", "")
	b.add("b/Babbage.md", "person")
	b.add("b/Plan.md", "")
	b.add("c/Engine.md", "machine")
	want := []FileEntry{
		{Path: "a/Ada.md", IsNote: true, EntityType: "person"},
		{Path: "a/photo.png"},
		{Path: "b/Babbage.md", IsNote: true, EntityType: "person"},
		{Path: "b/Plan.md", IsNote: true},
		{Path: "c/Engine.md", IsNote: true, EntityType: "machine"},
	}
	if d := cmp.Diff(want, b.list.Entries()); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"person", "machine"}, b.list.Types); d != "" {
		t.Errorf("types (-want +got):\n%s", d)
	}
	empty := newFileList(0).list
	got, err := json.Marshal(empty)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"paths":[],"attachments":[],"types":[],"typed":[]}` {
		t.Errorf("an empty list is %s: the window reads every table as an array", got)
	}
}
