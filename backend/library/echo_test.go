package library

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestOtherProcessWriteJournaledOnce: a write another MemoTree process makes and
// journals (a `memotree call` beside a running server; here a Vault of its own on the
// same folder, which shares the lock and not the memory of own writes) is in the
// journey once, as that process's; the watching library does not add an external edit
// for it. An edit by another program afterwards is still recorded as external.
func TestOtherProcessWriteJournaledOnce(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"A.md": "first\n"})
	l, err := Open(t.Context(), "t", dir, Options{Watch: true, Debounce: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Graph(t.Context()); err != nil {
		t.Fatal(err)
	}
	changed := make(chan []vpath.Path, 64)
	defer l.Subscribe(func(paths []vpath.Path, _ bool) { changed <- paths })()
	// waitApplied waits until the library has applied (and journaled) a change of p.
	waitApplied := func(p vpath.Path) {
		t.Helper()
		for {
			select {
			case ps := <-changed:
				if slices.Contains(ps, p) {
					return
				}
			case <-time.After(30 * time.Second): // a last guard: the watcher sees a write at once
				t.Fatalf("the library did not apply the change of %s", p)
			}
		}
	}
	other, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Write(t.Context(), "A.md", []byte("second\n"), vault.WriteOptions{Actor: "cli", Op: "update_entity"}); err != nil {
		t.Fatal(err)
	}
	waitApplied("A.md")
	if _, err := other.Write(t.Context(), "B.md", []byte("new\n"), vault.WriteOptions{Actor: "cli", Op: "create_entity", CreateOnly: true}); err != nil {
		t.Fatal(err)
	}
	waitApplied("B.md")
	if err := os.WriteFile(filepath.Join(dir, "A.md"), []byte("third, by an editor\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitApplied("A.md")
	entries, _, err := l.Vault().Journey()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Actor+" "+e.Op+" "+e.Entities[0])
	}
	want := []string{"cli update_entity A.md", "cli create_entity B.md", "external edit A"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("journey (-want +got):\n%s", d)
	}
}
