package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

func TestReadMany(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, dir := openWith(t, map[string]string{"a.md": "A", "d/b.md": "B", "d/e/c.md": "C", "big.md": "0123456789"})
	if err := os.Symlink("../a.md", filepath.Join(dir, "d", "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "d", "out.md")); err != nil {
		t.Fatal(err)
	}
	paths := []vpath.Path{"a.md", "d/b.md", "d/e/c.md", "d/link.md", "d/out.md", "missing/x.md", "d/gone.md", "big.md", "../x.md"}
	var mu sync.Mutex
	got := map[vpath.Path]string{}
	errs := map[vpath.Path]error{}
	err := v.ReadMany(t.Context(), paths, ReadManyOptions{MaxSize: 5}, func(i int, data []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs[paths[i]] = err
			return
		}
		got[paths[i]] = string(data) // copied: the buffer is reused
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[vpath.Path]string{"a.md": "A", "d/b.md": "B", "d/e/c.md": "C", "d/link.md": "A"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	checks := map[vpath.Path]error{"d/out.md": ErrOutside, "missing/x.md": fs.ErrNotExist, "d/gone.md": fs.ErrNotExist, "big.md": ErrTooLarge, "../x.md": ErrOutside}
	for p, want := range checks {
		if !errors.Is(errs[p], want) && !(want == fs.ErrNotExist && errors.Is(errs[p], ErrNotFound)) {
			t.Errorf("%s: err = %v, want %v", p, errs[p], want)
		}
	}
}

func TestWalkUnder(t *testing.T) {
	v, _ := openWith(t, map[string]string{"a.md": "A", "d/b.md": "B", "d/e/c.md": "C", "dd/x.md": "X"})
	files, err := v.WalkUnder(t.Context(), "d")
	if err != nil {
		t.Fatal(err)
	}
	var got []vpath.Path
	for _, f := range files {
		got = append(got, f.Path)
	}
	if diff := cmp.Diff([]vpath.Path{"d/b.md", "d/e/c.md"}, got); diff != "" {
		t.Errorf("WalkUnder(d) (-want +got):\n%s", diff)
	}
	for _, bad := range []vpath.Path{"../x", ".git", "missing"} {
		if _, err := v.WalkUnder(t.Context(), bad); err == nil {
			t.Errorf("WalkUnder(%q) gave no error", bad)
		}
	}
}
