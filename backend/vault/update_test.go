package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/vpath"
)

// TestUpdateFileNeverConflicts: writers on separate Vaults of one folder (as separate
// processes are) append to one file through UpdateFile at once; every line lands
// once, none is refused.
func TestUpdateFileNeverConflicts(t *testing.T) {
	_, dir := openWith(t, map[string]string{"n.md": "# N\n"})
	const writers, each = 4, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		v, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		wg.Go(func() {
			for i := range each {
				line := fmt.Sprintf("writer %d line %d\n", w, i)
				_, err := v.UpdateFile(t.Context(), "n.md", func(cur []byte, exists bool) ([]byte, error) {
					return append(cur, line...), nil
				}, WriteOptions{Actor: "test", Op: "append"})
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("an append was refused: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "n.md"))
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		for i := range each {
			if n := strings.Count(string(b), fmt.Sprintf("writer %d line %d\n", w, i)); n != 1 {
				t.Errorf("writer %d line %d is there %d times", w, i, n)
			}
		}
	}
}

// TestUpdateFileReadsAgainAfterAnOutsideSave: an editor that takes no lock saves
// between the read and the write; the update is made again on its version, so both
// survive.
func TestUpdateFileReadsAgainAfterAnOutsideSave(t *testing.T) {
	v, dir := openWith(t, map[string]string{"n.md": "start\n"})
	calls := 0
	v.beforeRename = func(string) error {
		if calls == 1 {
			return os.WriteFile(filepath.Join(dir, "n.md"), []byte("start\nfrom the editor\n"), 0o644)
		}
		return nil
	}
	_, err := v.UpdateFile(t.Context(), "n.md", func(cur []byte, _ bool) ([]byte, error) {
		calls++
		return append(cur, "from MemoTree\n"...), nil
	}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "n.md")); string(b) != "start\nfrom the editor\nfrom MemoTree\n" || calls != 2 {
		t.Errorf("after an outside save mid-update: %q (fn called %d times)", b, calls)
	}
}

// TestUpdateFileCompareAndSwap: with IfHash, a stale hash is a conflict and fn is not
// called; the current hash writes.
func TestUpdateFileCompareAndSwap(t *testing.T) {
	v, dir := openWith(t, map[string]string{"n.md": "one\n"})
	called := false
	fn := func(cur []byte, _ bool) ([]byte, error) { called = true; return append(cur, "two\n"...), nil }
	if _, err := v.UpdateFile(t.Context(), "n.md", fn, WriteOptions{IfHash: HashOf([]byte("old\n"))}); !errors.Is(err, ErrConflict) || called {
		t.Errorf("UpdateFile on a stale hash = %v (fn called: %v), want ErrConflict", err, called)
	}
	if _, err := v.UpdateFile(t.Context(), "n.md", fn, WriteOptions{IfHash: HashOf([]byte("one\n"))}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "n.md")); string(b) != "one\ntwo\n" {
		t.Errorf("n.md = %q", b)
	}
	sentinel := errors.New("the caller's own refusal")
	if _, err := v.UpdateFile(t.Context(), "n.md", func([]byte, bool) ([]byte, error) { return nil, sentinel }, WriteOptions{}); !errors.Is(err, sentinel) {
		t.Errorf("fn's error = %v, want it returned as it is", err)
	}
}

// TestUpdateBatch: an Update of two files made from their current content, read again
// when an outside save lands between the read and the write; a change fn conditions
// itself is not retried.
func TestUpdateBatch(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "a\n", "b.md": "b\n"})
	calls := 0
	hashes, err := v.Update(t.Context(), []vpath.Path{"a.md", "b.md", "c.md"}, func(cur map[vpath.Path]Current) ([]Change, error) {
		calls++
		if calls == 1 { // an editor saves a.md after the read
			if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("a, edited\n"), 0o644); err != nil {
				return nil, err
			}
		}
		if cur["c.md"].Exists {
			return nil, errors.New("c.md exists")
		}
		return []Change{
			{Path: "a.md", Data: append(cur["a.md"].Data, "+\n"...)},
			{Path: "b.md", Delete: true},
			{Path: "c.md", Data: cur["b.md"].Data},
		}, nil
	}, WriteOptions{Actor: "test", Op: "update"})
	if err != nil || len(hashes) != 3 || calls != 2 {
		t.Fatalf("Update = %v, %v after %d calls", hashes, err, calls)
	}
	for name, want := range map[string]string{"a.md": "a, edited\n+\n", "b.md": "<absent>", "c.md": "b\n"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		got := string(b)
		if errors.Is(err, os.ErrNotExist) {
			got = "<absent>"
		}
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	calls = 0
	_, err = v.Update(context.Background(), []vpath.Path{"a.md"}, func(cur map[vpath.Path]Current) ([]Change, error) {
		calls++
		return []Change{{Path: "a.md", Data: []byte("x\n"), IfHash: HashOf([]byte("stale"))}}, nil
	}, WriteOptions{})
	if !errors.Is(err, ErrConflict) || calls != 1 {
		t.Errorf("a caller's own stale condition = %v after %d calls, want one ErrConflict", err, calls)
	}
}
