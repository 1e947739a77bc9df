package library

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// listedPaths returns the paths of the files (not folders) of a listing.
func listedPaths(files []vault.FileInfo) []vpath.Path {
	var out []vpath.Path
	for _, f := range files {
		if !f.IsDir {
			out = append(out, f.Path)
		}
	}
	return out
}

// While a background scan reads the notes, Listing answers with the scan's own walk
// (the window's tree at 100k notes no longer waits for a second walk of the folder
// made while the scan keeps both cores busy): a file written after that walk is not
// in it. Once the graph is loaded, Listing walks the folder again and sees the file.
func TestListingSharesTheScansWalk(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(30))
	reading := make(chan struct{})
	release := make(chan struct{})
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Background: true, BeforeRead: func(int) {
		close(reading)
		<-release
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	select {
	case <-reading:
	case <-time.After(30 * time.Second):
		t.Fatal("the background scan never listed the vault")
	}
	// The scan has walked and waits before reading: a new file now is not in its walk.
	if err := os.WriteFile(filepath.Join(dir, "late.md"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := l.Listing(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := listedPaths(files)
	if len(got) != 30 || slices.Contains(got, "late.md") || !slices.IsSorted(got) {
		t.Fatalf("Listing during the scan gave %d files (%v…), want the scan's walk: the 30 notes, sorted, without late.md", len(got), got[:min(3, len(got))])
	}
	if l.Scanned() {
		t.Fatal("the scan ended while it was held")
	}
	close(release)
	if _, err := l.Graph(t.Context()); err != nil {
		t.Fatal(err)
	}
	files, err = l.Listing(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := listedPaths(files); !slices.Contains(got, "late.md") || len(got) != 31 {
		t.Fatalf("Listing after the scan gave %d files, want a fresh walk of 31 with late.md", len(got))
	}
}

// A lazy library, which has no scan running, is walked at once, and Listing does not
// scan it.
func TestListingWithoutAScan(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(5))
	l, err := Open(t.Context(), "lib", dir, Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	files, err := l.Listing(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := listedPaths(files); len(got) != 5 {
		t.Fatalf("a lazy library listed %v, want its 5 notes", got)
	}
	if l.Scanned() {
		t.Fatal("Listing scanned a lazy library")
	}
}
