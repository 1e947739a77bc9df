package library

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestCancelledFirstScanIsRetried cancels the first scan of a lazily opened library
// (as Ctrl-C in `memotree chat`, which has no watcher, would), refreshes a note with
// the cancelled context, and then uses the library: the graph is the whole vault, not
// an empty graph for good.
func TestCancelledFirstScanIsRetried(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(50))
	ctx, cancel := context.WithCancel(t.Context())
	var once sync.Once
	l, err := Open(t.Context(), "lib", dir, Options{Lazy: true, BeforeRead: func(int) { once.Do(cancel) }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Graph(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled scan returned %v, want context.Canceled", err)
	}
	if l.Scanned() {
		t.Error("a cancelled scan counts as done")
	}
	l.refresh(ctx, "notes/n001.md")
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n := g.Stats().Notes; n != 50 {
		t.Errorf("the graph has %d notes after the cancelled scan, want 50", n)
	}
}

// TestScanErrorSurfaces removes a lazy library's folder before its first scan: Graph
// returns the scan's error instead of an empty graph, every time it is asked.
func TestScanErrorSurfaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	writeFiles(t, dir, ringOfNotes(5))
	l, err := Open(t.Context(), "lib", dir, Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if g, err := l.Graph(t.Context()); err == nil {
			t.Fatalf("the scan of a removed folder succeeded with %d notes", g.Stats().Notes)
		}
	}
}

// TestWriteIndexesWithoutRefresh writes and applies through the library, with no
// Refresh and no watcher: the graph has the changes at once.
func TestWriteIndexesWithoutRefresh(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"A.md": "alone\n", "old.md": "[[A]]\n"})
	l, err := Open(t.Context(), "lib", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Write(t.Context(), "B.md", []byte("links [[A]]\n"), vault.WriteOptions{CreateOnly: true}); err != nil {
		t.Fatal(err)
	}
	g := graphOf(t, l)
	if back := g.Backlinks("A.md"); len(back) != 2 {
		t.Errorf("after Write, A has %d backlinks, want 2 (old and B)", len(back))
	}
	_, err = l.Apply(t.Context(), []vault.Change{
		{Path: "C.md", Data: []byte("[[B]]\n"), CreateOnly: true},
		{Path: "old.md", Delete: true, IfHash: vault.HashOf([]byte("[[A]]\n"))},
	}, vault.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Has("old.md") || !g.Has("C.md") || len(g.Backlinks("B.md")) != 1 {
		t.Errorf("after Apply: old %v, C %v, backlinks of B %d", g.Has("old.md"), g.Has("C.md"), len(g.Backlinks("B.md")))
	}
	// A batch refused by its compare-and-swap changes nothing, and the graph still
	// matches the disk.
	_, err = l.Apply(t.Context(), []vault.Change{{Path: "A.md", Data: []byte("x\n"), IfHash: "stale"}}, vault.WriteOptions{})
	if !errors.Is(err, vault.ErrConflict) || !g.Has("A.md") {
		t.Errorf("a refused batch: %v, A indexed %v", err, g.Has("A.md"))
	}
}

// TestWriteToLazyLibrary writes to a lazily opened library before anything scanned
// it: the write costs no scan, and the first read of the graph has it.
func TestWriteToLazyLibrary(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(3))
	l, err := Open(t.Context(), "lib", dir, Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Write(t.Context(), "new.md", []byte("[[n000]]\n"), vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if l.Scanned() {
		t.Error("a write scanned the lazy library")
	}
	if g := graphOf(t, l); !g.Has("new.md") || g.Stats().Notes != 4 {
		t.Errorf("the first scan after the write: new.md %v, %d notes", g.Has("new.md"), g.Stats().Notes)
	}
}

// TestWriteDuringScanIsApplied writes a note while the first scan runs, after it
// listed the vault: the write does not wait for the scan, and the scan applies it
// when it is done.
func TestWriteDuringScanIsApplied(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(20))
	listed, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	l, err := Open(t.Context(), "lib", dir, Options{Lazy: true, BeforeRead: func(int) {
		once.Do(func() { close(listed); <-release })
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	type answer struct {
		notes int
		has   bool
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		g, err := l.Graph(context.Background())
		if err != nil {
			done <- answer{err: err}
			return
		}
		done <- answer{g.Stats().Notes, g.Has(vpath.Path("late.md")), nil}
	}()
	<-listed
	if _, err := l.Write(t.Context(), "late.md", []byte("[[n000]]\n"), vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	close(release)
	a := <-done
	if a.err != nil || !a.has || a.notes != 21 {
		t.Errorf("the graph after the scan: %+v, want late.md among 21 notes", a)
	}
}
