package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
)

// TestApplyStepsUndo proves that a multi-file change failing part-way leaves every
// file as it was: a write, a rename, a removal and a creation succeed, then a
// compare-and-swap fails, and all four are undone.
func TestApplyStepsUndo(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.md": "A\n", "b.md": "B\n", "c.md": "C\n", "d.md": "D\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := library.Open(t.Context(), "t", dir, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h := func(s string) vault.Hash { return vault.HashOf([]byte(s)) }
	steps := []step{
		{kind: stepWrite, path: "a.md", old: []byte("A\n"), hash: h("A\n"), data: []byte("A2\n")},
		{kind: stepRename, path: "b.md", to: "sub/b2.md", hash: h("B\n")},
		{kind: stepRemove, path: "c.md", old: []byte("C\n"), hash: h("C\n")},
		{kind: stepCreate, path: "new.md", data: []byte("N\n")},
		{kind: stepWrite, path: "d.md", old: []byte("stale\n"), hash: h("stale\n"), data: []byte("D2\n")},
	}
	res, err := applySteps(context.Background(), loadedLib(t, l), &tool.Call{Actor: "agent"}, "test", steps)
	if err != nil {
		t.Fatal(err)
	}
	if res == nil || res.ErrorCode != tool.CodeConflict {
		t.Fatalf("result = %+v, want a conflict", res)
	}
	got := map[string]string{}
	for name := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		got[name] = string(b)
	}
	if diff := cmp.Diff(files, got); diff != "" {
		t.Errorf("files after undo (-want +got):\n%s", diff)
	}
	for _, gone := range []string{"new.md", "sub/b2.md"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s still exists", gone)
		}
	}
	if g := loadedLib(t, l).Graph(); !g.Has("b.md") || g.Has("new.md") {
		t.Error("graph not refreshed after the undo")
	}
}

// loadedLib returns l as the handlers hold it, its graph loaded.
func loadedLib(t testing.TB, l *library.Library) lib {
	t.Helper()
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return lib{l, g}
}
