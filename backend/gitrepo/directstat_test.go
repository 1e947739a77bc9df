package gitrepo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestDirectStatGivesTheSameStatus: with DirectStat (memotree call's raw lstat calls)
// Status reports modified, deleted, untracked and type-changed files exactly as git
// does and as the ordinary calls do.
func TestDirectStatGivesTheSameStatus(t *testing.T) {
	dir, _ := newRepo(t)
	write(t, dir, map[string]string{"a.md": "a\n", "b.md": "b\n", "people/c.md": "c\n", "people/d.md": "d\n", "e.md": "e\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "c")
	write(t, dir, map[string]string{"a.md": "a changed\n", "people/new.md": "new\n"})
	if err := os.Remove(filepath.Join(dir, "people", "d.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "e.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "e.md")); err != nil {
		t.Fatal(err)
	}
	want := gitStates(t, dir)
	if len(want) < 4 {
		t.Fatalf("git status = %v, want four changes", want)
	}
	t.Cleanup(func() { gitrepo.SetDirectStat(false) })
	for _, direct := range []bool{false, true} {
		gitrepo.SetDirectStat(direct)
		if got := ourStates(t, open(t, dir)); !cmp.Equal(want, got) {
			t.Errorf("direct %v: Status = %v, git status = %v", direct, got, want)
		}
	}
}
