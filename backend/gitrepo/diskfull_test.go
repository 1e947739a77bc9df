package gitrepo_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/fsfault"
)

// gitLeftovers lists what a commit must never leave in .git once it returned: its
// locks (of the index, the branch and the tag) and records, the index it kept,
// temporary objects.
func gitLeftovers(dir string) []string {
	var out []string
	for _, name := range []string{"index.lock", "MEMOTREE_INDEX_LOCK", "MEMOTREE_REF_UPDATE", "MEMOTREE_INDEX_BEFORE"} {
		if _, err := os.Lstat(filepath.Join(dir, ".git", name)); err == nil {
			out = append(out, name)
		}
	}
	for _, pattern := range []string{"objects/pack/tmp_*", "refs/heads/*.lock", "refs/tags/*.lock", "HEAD.lock"} {
		m, _ := filepath.Glob(filepath.Join(dir, ".git", filepath.FromSlash(pattern)))
		out = append(out, m...)
	}
	return out
}

// TestCommitOnAFullDisk makes a commit (with a tag) fail at each step that MemoTree
// itself writes in .git (the owner records, index.lock, its write, sync and rename,
// the branch's and the tag's locks, their writes, syncs and renames), once and with a
// disk that stays full: a failed commit is a disk fault and leaves HEAD, the index and
// the working tree as they were and nothing behind; a commit that succeeds is whole,
// and the next one works.
func TestCommitOnAFullDisk(t *testing.T) {
	steps := func(n int) (int, error) {
		dir, r := newRepo(t)
		write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n", "new/n.md": "# N\n"})
		var count atomic.Int64
		restore := fsfault.Inject(fsfault.FailAt(n, syscall.ENOSPC, &count))
		_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Tag: "t1"})
		restore()
		return int(count.Load()), err
	}
	total, err := steps(0)
	if err != nil || total < 5 {
		t.Fatalf("a commit without a fault: %d steps, %v", total, err)
	}
	for _, from := range []bool{false, true} {
		for n := 1; n <= total; n++ {
			dir, r := newRepo(t)
			write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n", "new/n.md": "# N\n"})
			head := run(t, dir, "rev-parse", "HEAD")
			index, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
			status := porcelain(t, dir)
			var count atomic.Int64
			hook := fsfault.FailAt(n, syscall.ENOSPC, &count)
			if from {
				hook = fsfault.FailFrom(n, syscall.ENOSPC, &count)
			}
			restore := fsfault.Inject(hook)
			_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Tag: "t1"})
			restore()
			where := func() string { return fmt.Sprintf("step %d (the disk full from then on: %v)", n, from) }
			if left := gitLeftovers(dir); len(left) > 0 {
				t.Errorf("%s: left in .git: %v", where(), left)
			}
			if err != nil && !strings.Contains(err.Error(), "committed") {
				if !fsfault.Is(err) {
					t.Errorf("%s: %v is not a disk fault", where(), err)
				}
				if got := run(t, dir, "rev-parse", "HEAD"); got != head {
					t.Errorf("%s: failed (%v) but HEAD moved", where(), err)
				}
				if now, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); string(now) != string(index) {
					t.Errorf("%s: failed (%v) but the index changed", where(), err)
				}
				if d := cmp.Diff(status, porcelain(t, dir)); d != "" {
					t.Errorf("%s: failed (%v) but git status changed (-want +got):\n%s", where(), err, d)
				}
			} else if got := run(t, dir, "rev-parse", "HEAD"); got == head {
				t.Errorf("%s: succeeded but HEAD did not move", where())
			}
			run(t, dir, "fsck", "--strict")
			write(t, dir, map[string]string{"b.md": "# B again\n"})
			if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "next"}); err != nil && !errors.Is(err, gitrepo.ErrNothingToCommit) {
				t.Errorf("%s: the commit after: %v", where(), err)
			}
			if left := porcelain(t, dir); len(left) > 0 {
				t.Errorf("%s: pending after the next commit: %v", where(), left)
			}
		}
	}
}
