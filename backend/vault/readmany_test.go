package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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

// TestGroupByDir checks the groups against a plain reference: every index once, the
// folders in path order, each folder's indexes in order and cut in chunks of 64, for
// paths as a walk lists them (a folder's files interrupted by its subfolders') and
// shuffled.
func TestGroupByDir(t *testing.T) {
	var paths []vpath.Path
	for i := range 700 {
		dir := []string{"", "a", "a/b", "a b", "a/b/c", "z"}[i%6]
		if i%3 == 0 {
			dir = []string{"", "a", "a/b"}[i%3] // big folders: several chunks
		}
		paths = append(paths, vpath.Path(strings.TrimPrefix(fmt.Sprintf("%s/n%03d.md", dir, i), "/")))
	}
	reference := func(paths []vpath.Path) [][]int {
		byDir := map[vpath.Path][]int{}
		for i, p := range paths {
			byDir[p.Dir()] = append(byDir[p.Dir()], i)
		}
		var out [][]int
		for _, d := range slices.Sorted(maps.Keys(byDir)) {
			for idx := byDir[d]; len(idx) > 0; idx = idx[min(64, len(idx)):] {
				out = append(out, idx[:min(64, len(idx))])
			}
		}
		return out
	}
	slices.Sort(paths)
	shuffled := slices.Clone(paths)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, ps := range [][]vpath.Path{paths, shuffled, nil} {
		if diff := cmp.Diff(reference(ps), groupByDir(ps), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("groupByDir (-want +got):\n%s", diff)
		}
	}
}
