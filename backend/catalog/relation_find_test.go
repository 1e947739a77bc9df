package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
)

// TestAllRelationsAgreesWithGraph checks the fast path of find_relations against the
// graph's own edges: the same relations, resolved to the same notes.
func TestAllRelationsAgreesWithGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS("../../demo/vault")); err != nil {
		t.Fatal(err)
	}
	// A dangling relation and one without a type.
	extra := "---\nrelations:\n  - relation type: haunts\n    relation to: \"[[Ghost]]\"\n  - relation to: Welcome\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "Extra.md"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := library.Open(t.Context(), "t", dir, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	g := loadedLib(t, l).Graph()
	var want []graph.Edge
	for _, ed := range append(g.Edges(), g.Unresolved()...) {
		if ed.Link == nil {
			want = append(want, ed)
		}
	}
	key := func(e graph.Edge) string { return string(e.From) + "|" + e.Type + "|" + e.Target + "|" + string(e.To) }
	sortEdges := func(es []graph.Edge) []string {
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = key(e)
		}
		slices.Sort(out)
		return out
	}
	got := allRelations(g)
	if d := cmp.Diff(sortEdges(want), sortEdges(got)); d != "" {
		t.Errorf("relations (-graph +allRelations):\n%s", d)
	}
	if len(got) < 20 {
		t.Errorf("only %d relations in the demo vault", len(got))
	}
}
