//go:build unix

package gitrepo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestBlameRunsNoProgramOfTheRepository: the git blame MemoTree runs starts no
// file-system monitor, no textconv program and no hook the repository's configuration
// names (plain `git blame` starts the first two), and reads this vault's repository
// even when the environment points git at another one.
func TestBlameRunsNoProgramOfTheRepository(t *testing.T) {
	dir, _ := newRepo(t)
	marks, scripts := t.TempDir(), t.TempDir()
	script := func(name string) string {
		p := filepath.Join(scripts, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch '"+filepath.Join(marks, name)+"'\ncat \"$1\" 2>/dev/null\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(t, dir, map[string]string{".gitattributes": "*.md diff=shown\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "attributes")
	run(t, dir, "config", "diff.shown.textconv", script("textconv"))
	run(t, dir, "config", "core.fsmonitor", script("fsmonitor"))
	if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"post-checkout", "post-index-change", "reference-transaction"} {
		if err := os.Symlink(script(h), filepath.Join(dir, ".git", "hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, dir, map[string]string{"a.md": read(t, dir, "a.md") + "a line not committed\n"})
	other, _ := newRepo(t)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(other, ".git", "index"))
	_, r := openVault(t, dir)
	b, err := r.Blame(t.Context(), gitrepo.BlameOptions{Path: "a.md"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Lines); n != 5 || b.Lines[4].Commit != "" || b.Lines[0].Commit == "" {
		t.Errorf("blame of a.md: %+v", b.Lines)
	}
	ran, _ := filepath.Glob(filepath.Join(marks, "*"))
	if len(ran) > 0 {
		t.Errorf("blame ran the repository's programs: %v", ran)
	}
}
