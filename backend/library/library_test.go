package library

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

// writeFiles creates files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestScan(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"A.md":           "---\nentity type: person\nrelations:\n  - relation type: knows\n    relation to: \"[[B]]\"\n---\nSee [[B]] and [[Missing]].\n",
		"sub/B.md":       "Back to [[A|a]]. ![[pic.png]]\n```\n[[NotALink]]\n```\n",
		"sub/pic.png":    "png",
		".obsidian/x.md": "[[ignored]]",
		"broken.md":      "---\nkey: [unclosed\n---\nbody [[A]]\n",
	})
	var before []int
	l, err := Open(t.Context(), "t", dir, Options{BeforeRead: func(notes int) { before = append(before, notes) }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !slices.Equal(before, []int{3}) {
		t.Errorf("BeforeRead was called with %v, want once with the 3 notes", before)
	}
	st := graphOf(t, l).Stats()
	if st.Notes != 3 || st.Files != 4 {
		t.Errorf("notes=%d files=%d, want 3 notes and 4 files", st.Notes, st.Files)
	}
	// A: relation link + [[B]] + [[Missing]]; B: [[A|a]] + embed; broken: [[A]]
	if st.Links != 6 || st.Unresolved != 1 || st.Relations != 1 {
		t.Errorf("stats = %+v, want 6 links, 1 unresolved, 1 relation", st)
	}
	ws := l.Warnings()
	if len(ws) == 0 || ws[0].Path != "broken.md" || ws[0].Line == 0 {
		t.Errorf("warnings = %+v, want one for broken.md with a line", ws)
	}
	back := graphOf(t, l).Backlinks("A.md")
	if len(back) != 2 {
		t.Errorf("backlinks of A = %+v, want 2 (from sub/B.md and broken.md)", back)
	}
}

// TestFollowsExternalEdits edits the vault the way another program would and waits
// for the graph and the event bus to follow.
func TestFollowsExternalEdits(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"A.md": "no links\n"})
	bus := event.NewBus()
	events, cancel := bus.Subscribe(64)
	defer cancel()
	l, err := Open(t.Context(), "t", dir, Options{Watch: true, Bus: bus, Debounce: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	writeFiles(t, dir, map[string]string{"A.md": "now [[B]]\n"})
	wait.For(t, "the new link", func() bool { return graphOf(t, l).Stats().Unresolved == 1 })

	writeFiles(t, dir, map[string]string{"deep/er/B.md": "hello [[A]]\n"})
	wait.For(t, "B in a new nested folder", func() bool {
		return slices.Contains(graphOf(t, l).Notes(), vpath.Path("deep/er/B.md")) && graphOf(t, l).Stats().Unresolved == 0
	})

	if err := os.Rename(filepath.Join(dir, "deep"), filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the folder move", func() bool {
		ns := graphOf(t, l).Notes()
		return slices.Contains(ns, vpath.Path("moved/er/B.md")) && !slices.Contains(ns, vpath.Path("deep/er/B.md"))
	})

	if err := os.Remove(filepath.Join(dir, "moved", "er", "B.md")); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the removal", func() bool { return graphOf(t, l).Stats().Unresolved == 1 })

	// The scan's progress comes first; then the changes.
	for seen := false; !seen; {
		select {
		case e := <-events:
			if e.Topic == event.TaskProgress {
				continue
			}
			if e.Topic != event.VaultChanged || e.Data.(event.VaultChange).Library != "t" {
				t.Errorf("event = %+v", e)
			}
			seen = true
		case <-time.After(30 * time.Second): // a last guard: the event comes as soon as the watcher sees the edit
			t.Fatal("no VaultChanged event published")
		}
	}
	entries, _, err := l.Vault().Journey()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 || entries[0].Actor != "external" {
		t.Errorf("journey = %+v, want external edits recorded", entries)
	}
}

// graphOf returns the library's graph, failing the test when the scan failed.
func graphOf(t testing.TB, l *Library) *graph.Graph {
	t.Helper()
	g, err := l.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return g
}
