package library

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestForkSeesItsWritesAndNobodyElseDoes(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "[[b]]\n", "c.md": "C\n"})
	l, err := Open(ctx, "v", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	before := readAll(t, dir)
	tx := NewTx()
	read, err := InTx(WithTx(ctx, tx, false), l)
	if err != nil || read != l {
		t.Fatalf("a read before any write acts on %p (%v), want the library itself", read, err)
	}
	f, err := InTx(WithTx(ctx, tx, true), l)
	if err != nil || f == l || f.Parent() != l {
		t.Fatalf("a write's library: %p, parent %p (%v); want a fork of %p", f, f.Parent(), err, l)
	}
	if again, _ := InTx(WithTx(ctx, tx, false), l); again != f {
		t.Errorf("a read after the fork acts on %p, want the fork %p", again, f)
	}
	if _, err := f.Write(ctx, "b.md", []byte("B links [[c]]\n"), vault.WriteOptions{CreateOnly: true, Actor: "script"}); err != nil {
		t.Fatal(err)
	}
	fg, _ := f.Graph(ctx)
	lg, _ := l.Graph(ctx)
	if _, ok := fg.Resolve("a.md", "b"); !ok {
		t.Errorf("the fork's graph does not resolve [[b]] to the note it wrote")
	}
	if _, ok := lg.Resolve("a.md", "b"); ok {
		t.Errorf("the library's graph resolves [[b]], a note only the transaction wrote")
	}
	if got := readAll(t, dir); !cmp.Equal(before, got) {
		t.Fatalf("the fork wrote to disk (-before +after):\n%s", cmp.Diff(before, got))
	}
	applied, err := tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]vpath.Path{"b.md"}, applied[l]); diff != "" {
		t.Errorf("applied (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.md")); string(b) != "B links [[c]]\n" {
		t.Errorf("b.md after the commit: %q", b)
	}
	if _, ok := lg.Resolve("a.md", "b"); !ok {
		t.Errorf("the library's graph does not resolve [[b]] once the transaction is committed")
	}
	j, _, _ := l.Vault().Journey()
	if len(j) != 1 || j[0].Actor != "script" || j[0].Entities[0] != "b.md" {
		t.Errorf("journey after the commit: %+v; want the transaction's own write", j)
	}
}

// TestTxCommitIsAllOrNothingAcrossLibraries: a transaction over two libraries whose
// second library's file someone else changed applies nothing in either.
func TestTxCommitIsAllOrNothingAcrossLibraries(t *testing.T) {
	ctx := t.Context()
	var libs []*Library
	var dirs []string
	for range 2 {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"n.md": "N\n"})
		l, err := Open(ctx, filepath.Base(dir), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		libs, dirs = append(libs, l), append(dirs, dir)
	}
	tx := NewTx()
	for _, l := range libs {
		f, err := InTx(WithTx(ctx, tx, true), l)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.UpdateFile(ctx, "n.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, "script\n"...), nil }, vault.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(dirs[1], "n.md")
	if err := os.WriteFile(other, []byte("N\ntheirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := tx.Commit(ctx)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("commit over someone else's change: %v, want ErrConflict", err)
	}
	for i, want := range []string{"N\n", "N\ntheirs\n"} {
		if b, _ := os.ReadFile(filepath.Join(dirs[i], "n.md")); string(b) != want {
			t.Errorf("library %d's note after the refused commit: %q, want %q", i, b, want)
		}
	}
}

// TestWatchingLibraryFinishesACrashedBatch: a batch whose writer died after its intent
// was recorded is finished by a library that watches the vault, with nobody writing.
func TestWatchingLibraryFinishesACrashedBatch(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "old\n", ".memotree/keep": ""})
	l, err := Open(ctx, "v", dir, Options{Watch: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// What a writer killed between its intent and its renames leaves: the new content
	// in a temporary file beside its target, and the intent naming both.
	tmp := vault.TempPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAA"
	writeFiles(t, dir, map[string]string{tmp: "new\n", ".memotree/intent.json.part": `{"steps":[{"temp":"` + tmp + `","target":"a.md"}]}`})
	if err := os.Rename(filepath.Join(dir, ".memotree", "intent.json.part"), filepath.Join(dir, ".memotree", "intent.json")); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the watching library to finish the crashed batch", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "a.md"))
		_, err := os.Stat(filepath.Join(dir, ".memotree", "intent.json"))
		return string(b) == "new\n" && errors.Is(err, os.ErrNotExist)
	})
	wait.For(t, "the graph to hold the finished note", func() bool {
		g, _ := l.Graph(context.Background())
		n, ok := g.Note("a.md")
		return ok && n != nil
	})
}
