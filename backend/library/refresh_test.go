package library

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestApplyIndexesAsRefresh creates the same notes in two vaults, one through
// Library.Apply, which indexes the bytes written, and one through the vault, then
// Refresh from disk, and compares the graphs and warnings.
func TestApplyIndexesAsRefresh(t *testing.T) {
	start := map[string]string{"A.md": "See [[New 1]].\n"}
	created := map[vpath.Path][]byte{
		"New 1.md":    []byte("---\nentity type: person\nrelations:\n  - relation type: knows\n    relation to: \"[[A]]\"\n---\nBack to [[A]].\n"),
		"sub/New2.md": []byte("---\nkey: [unclosed\n---\n[[New 1]]\n"),
		"pic.png":     []byte("png"),
	}
	type outcome struct {
		Stats    graph.Stats
		Back     []graph.Edge
		Warnings []FileWarning
	}
	run := func(byBytes bool) outcome {
		dir := t.TempDir()
		writeFiles(t, dir, start)
		l, err := Open(t.Context(), "t", dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		var changes []vault.Change
		var paths []vpath.Path
		for p, data := range created {
			changes = append(changes, vault.Change{Path: p, Data: data, CreateOnly: true})
			paths = append(paths, p)
		}
		if byBytes {
			if _, err := l.Apply(t.Context(), changes, vault.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		} else {
			if _, err := l.Vault().Apply(t.Context(), changes, vault.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			l.Refresh(t.Context(), paths...)
		}
		return outcome{graphOf(t, l).Stats(), graphOf(t, l).Backlinks("A.md"), l.Warnings()}
	}
	want, got := run(false), run(true)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Apply differs from Refresh (-want +got):\n%s", diff)
	}
	if want.Stats.Notes != 3 {
		t.Errorf("notes = %d, want 3", want.Stats.Notes)
	}
}
