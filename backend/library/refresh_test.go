package library

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

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
			if _, err := l.vault.Apply(t.Context(), changes, vault.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			l.refresh(t.Context(), paths...)
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

// TestFenceAfterChanges: a fence created after outside edits is answered only once the
// subscribers have heard of every one of them.
func TestFenceAfterChanges(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"A.md": "a\n", ".memotree/.gitignore": "*\n"})
	l, err := Open(t.Context(), "t", dir, Options{Watch: true, Debounce: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var mu sync.Mutex
	heard := map[vpath.Path]bool{}
	l.Subscribe(func(paths []vpath.Path, _ bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range paths {
			heard[p] = true
		}
	})
	answered := make(chan []vpath.Path, 1)
	l.SubscribeFences(func(names []string) {
		mu.Lock()
		defer mu.Unlock()
		if slices.Contains(names, "fence-x") {
			answered <- slices.Sorted(maps.Keys(heard))
		}
	})
	if !l.Watching() {
		t.Fatal("a library opened with Watch says it does not watch")
	}
	writeFiles(t, dir, map[string]string{"A.md": "changed\n", "sub/B.md": "new [[A]]\n"})
	writeFiles(t, dir, map[string]string{".memotree/fence-x": ""})
	select {
	case got := <-answered:
		if want := []vpath.Path{"A.md", "sub/B.md"}; !slices.Equal(got, want) {
			t.Errorf("at the fence the subscribers had heard of %v, want %v", got, want)
		}
	case <-time.After(30 * time.Second): // a last guard: a fence is answered at once
		t.Fatal("the fence was not answered")
	}
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := g.Note("sub/B.md"); !ok || len(n.Links) != 1 {
		t.Error("the graph does not hold the note created before the fence")
	}
}

// refresh re-reads paths from disk into the graph (index given nothing written), the
// path the tests compare with writes whose content the library is given.
func (l *Library) refresh(ctx context.Context, paths ...vpath.Path) {
	l.index(context.WithoutCancel(ctx), nil, paths)
}
