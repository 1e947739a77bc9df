package library

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestOnceAsDefault opens the same vault with and without Options.Once: the library
// read once keeps no fingerprints, and its graph and warnings are those of the other,
// after the scan and after writes of an unchanged note, a changed one and a new one.
func TestOnceAsDefault(t *testing.T) {
	files := map[string]string{
		"A.md":     "---\nentity type: person\nrelations:\n  - relation type: knows\n    relation to: \"[[B]]\"\n---\nSee [[B]] and [[C]]. #tag\n",
		"B.md":     "Back to [[A]].\n",
		"sub/C.md": "---\nkey: [unclosed\n---\n[[A]] [[missing]]\n",
		"pic.png":  "png",
	}
	type outcome struct {
		Stats    graph.Stats
		Back     []graph.Edge
		Warnings []FileWarning
		Tags     int
	}
	run := func(once bool) (scanned, written outcome) {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		l, err := Open(t.Context(), "t", dir, Options{Once: once})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		g := graphOf(t, l)
		if n := len(l.sums); (n == 0) != once {
			t.Errorf("Once %v: the scan kept %d fingerprints", once, n)
		}
		scanned = outcome{g.Stats(), g.Backlinks("A.md"), l.Warnings(), g.TagCount()}
		for p, data := range map[string]string{"B.md": files["B.md"], "sub/C.md": "[[B]]\n", "D.md": "[[A]] [[C]]\n"} {
			if _, err := l.Write(t.Context(), vpath.Path(p), []byte(data), vault.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		g = graphOf(t, l)
		written = outcome{g.Stats(), g.Backlinks("A.md"), l.Warnings(), g.TagCount()}
		return scanned, written
	}
	wantScan, wantWrite := run(false)
	gotScan, gotWrite := run(true)
	if diff := cmp.Diff(wantScan, gotScan); diff != "" {
		t.Errorf("scan with Once differs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantWrite, gotWrite); diff != "" {
		t.Errorf("writes with Once differ (-want +got):\n%s", diff)
	}
	if wantWrite.Stats == wantScan.Stats {
		t.Errorf("the writes changed nothing: %+v", wantWrite.Stats)
	}
}
