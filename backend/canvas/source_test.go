package canvas

import (
	"regexp"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/library"
)

// A one-shot process renders a view from the folder alone: the graph stays unloaded,
// the tree is the one the graph gives, note lines keep their type, links and sections
// (backlinks need the graph), and the most linked notes come from the record the last
// process holding the graph left.
func TestRenderWithoutTheGraph(t *testing.T) {
	dir := genVault(t, 400)
	lib := openLib(t, dir)
	full := New(lib, nil)
	g, err := lib.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	top := FolderID(newSnapshot(g).subs[""][0])
	if _, err := full.Expand(t.Context(), "", top, Summary, ExpandOptions{}); err != nil {
		t.Fatal(err)
	}
	want, err := full.Render(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := library.Open(t.Context(), "test", dir, library.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	got, err := New(lazy, nil).Render(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Scanned() {
		t.Fatal("rendering a view loaded the whole graph")
	}
	backlinks := regexp.MustCompile(`, \d+ backlinks?`)
	if w, g := backlinks.ReplaceAllString(want.Text, ""), got.Text; w != g {
		t.Errorf("the view from the folder differs from the view from the graph (backlinks aside):\n--- graph\n%s\n--- folder\n%s", w, g)
	}
	if !strings.Contains(got.Text, "Most linked: ") || !strings.Contains(got.Text, "· ") {
		t.Errorf("the view from the folder lacks the most linked notes or the notes of the open page:\n%s", got.Text)
	}
}
