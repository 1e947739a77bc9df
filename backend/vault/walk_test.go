package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

func TestWalk(t *testing.T) {
	v, dir := openTemp(t)
	outside := t.TempDir()
	for _, name := range []string{
		"a.md", "b/c.md", "b/d/e.png", ".git/HEAD", ".obsidian/app.json", ".memotree/lock",
		".trash/old.md", "b/" + TempPrefix + "x", "journey.yaml", "sub/.hidden.md",
	} {
		mustWrite(t, filepath.Join(dir, filepath.FromSlash(name)), name)
	}
	mustWrite(t, filepath.Join(outside, "secret.md"), "s")
	links := map[string]string{
		"in.md":    "b/c.md", // file inside: followed
		"loop":     ".",      // the vault itself: a cycle, not followed
		"b/up":     "..",     // an ancestor: not followed
		"linkdir":  "b/d",    // a folder inside: followed
		"out.md":   outside + "/secret.md",
		"outdir":   outside,
		"rel.md":   "../" + filepath.Base(outside) + "/secret.md",
		"dangling": "nowhere.md",
		"gitlink":  ".git",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	got, err := v.Walk(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var paths []vpath.Path
	for _, f := range got {
		paths = append(paths, f.Path)
		if f.Size == 0 || f.ModTime.IsZero() || f.IsDir {
			t.Errorf("%s: %+v", f.Path, f)
		}
	}
	want := []vpath.Path{"a.md", "b/c.md", "b/d/e.png", "gitlink/HEAD", "in.md", "journey.yaml", "linkdir/e.png", "sub/.hidden.md"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
	// The ordered walk skips and follows as Walk does, and stats as it does.
	if diff := cmp.Diff(got, ordered(t, v, true, -1)); diff != "" {
		t.Errorf("WalkOrdered (-Walk +WalkOrdered):\n%s", diff)
	}
}

// ordered lists the files WalkOrdered visits, stopping after stop of them (never
// when stop is negative).
func ordered(t *testing.T, v *Vault, stat bool, stop int) []FileInfo {
	t.Helper()
	var out []FileInfo
	err := v.WalkOrdered(t.Context(), func() bool { return stat }, func(f FileInfo) bool {
		out = append(out, f)
		return len(out) != stop
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWalkCancelled(t *testing.T) {
	v, dir := openTemp(t)
	mustWrite(t, filepath.Join(dir, "a.md"), "a")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := v.Walk(ctx); err == nil {
		t.Error("Walk with a cancelled context succeeded")
	}
	if err := v.WalkOrdered(ctx, nil, func(FileInfo) bool { return true }); err == nil {
		t.Error("WalkOrdered with a cancelled context succeeded")
	}
}

// makeTree writes files notes spread over folders folders.
func makeTree(tb testing.TB, dir string, folders, files int) {
	tb.Helper()
	body := make([]byte, 512)
	for i := range folders {
		d := filepath.Join(dir, fmt.Sprintf("folder%03d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
		for j := range files / folders {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("note%05d.md", j)), body, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

func TestWalkLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large tree")
	}
	v, dir := openTemp(t)
	makeTree(t, dir, 100, 10_000)
	got, err := v.Walk(t.Context())
	if err != nil || len(got) != 10_000 {
		t.Fatalf("Walk = %d files, %v", len(got), err)
	}
}

// TestWalkOrder checks that the walk lists paths in byte order across folders whose
// names sort around the "/" of their paths ("a b", "a-b", "a.b" before "a/", "a0"
// after it), as a sort of the whole list would, from per-folder sorts merged.
func TestWalkOrder(t *testing.T) {
	v, dir := openTemp(t)
	var want []vpath.Path
	for _, name := range []string{
		"a.md", "a b.md", "a-b/x.md", "a/b.md", "a/b/c.md", "a/b-c.md", "a/b.c/d.md", "a/b/c/d/e.md",
		"a.b/e.md", "a0/f.md", "ab.md", "Z.md", "é/x.md", "é.md", "a/ b.md", "a!/x.md", "a/b0.md",
		"a/b/!.md", "a/b/~.md", "a~", "b/a.png", "b.png", "b/c/d/e/f/g.md", "b/c/d/e/f.md", "b/c/d/e.md",
	} {
		mustWrite(t, filepath.Join(dir, filepath.FromSlash(name)), name)
		want = append(want, vpath.Path(name))
	}
	if err := os.Symlink("a/b", filepath.Join(dir, "a.c")); err == nil { // a folder reached by a link
		want = append(want, "a.c/!.md", "a.c/c.md", "a.c/c/d/e.md", "a.c/~.md")
	}
	slices.Sort(want)
	for _, walk := range []func(context.Context) ([]FileInfo, error){v.Walk, v.WalkPaths} {
		got, err := walk(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var paths []vpath.Path
		for _, f := range got {
			paths = append(paths, f.Path)
		}
		if diff := cmp.Diff(want, paths); diff != "" {
			t.Errorf("walk (-want +got):\n%s", diff)
		}
	}
	// One file at a time, in the same order, to the end or to where it is stopped.
	for _, stop := range []int{-1, 1, 3, 9, len(want) - 1} {
		var paths []vpath.Path
		for _, f := range ordered(t, v, false, stop) {
			paths = append(paths, f.Path)
		}
		n := len(want)
		if stop >= 0 {
			n = stop
		}
		if diff := cmp.Diff(want[:n], paths); diff != "" {
			t.Errorf("WalkOrdered stopped after %d (-want +got):\n%s", stop, diff)
		}
	}
	// Statting wanted part way: the folders listed from then on have their files'
	// sizes and times, those listed before do not.
	var (
		seen    []FileInfo
		visited atomic.Int32 // stat is asked on the goroutines that list ahead
	)
	err := v.WalkOrdered(t.Context(), func() bool { return visited.Load() >= 2 }, func(f FileInfo) bool {
		seen = append(seen, f)
		visited.Add(1)
		return true
	})
	if err != nil || len(seen) != len(want) {
		t.Fatalf("WalkOrdered, statting part way: %d files, %v", len(seen), err)
	}
	if first, last := seen[0], seen[len(seen)-1]; !first.ModTime.IsZero() || last.ModTime.IsZero() || last.Size == 0 {
		t.Errorf("statting wanted from the third file on: the first file %+v, the last %+v", first, last)
	}
	names, err := v.WalkNames(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("WalkNames (-want +got):\n%s", diff)
	}
}
