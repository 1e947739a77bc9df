package gitrepo_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestUnsupportedIndexFormsRefused: a split index, a sparse index, a sparse checkout
// (the old core.sparseCheckout and `git sparse-checkout`), and files marked
// skip-worktree or assume-unchanged by hand make Status and commits (or opening the
// repository) refuse with an error saying what git command to run, where they would
// otherwise list notes git hides (or every note outside the sparse cone as deleted)
// and commit their deletion; nothing is written. Once that command has run, Status
// agrees with git status and a commit works.
func TestUnsupportedIndexFormsRefused(t *testing.T) {
	cases := []struct {
		name       string
		setup      [][]string // git commands; "!sparse" writes .git/info/sparse-checkout
		openBefore bool       // the repository opened before the setup (a running app)
		says       []string
		fix        [][]string
	}{
		{name: "split index", setup: [][]string{{"update-index", "--split-index"}},
			says: []string{"split", "git update-index --no-split-index"}, fix: [][]string{{"update-index", "--no-split-index"}}},
		{name: "old sparse checkout", setup: [][]string{{"config", "core.sparseCheckout", "true"}, {"!sparse"}, {"read-tree", "-mu", "HEAD"}},
			says: []string{"skip-worktree", "git sparse-checkout disable", "a.md"}, fix: [][]string{{"sparse-checkout", "disable"}, {"config", "--unset", "extensions.worktreeConfig"}, {"config", "--unset", "core.sparseCheckout"}}},
		{name: "git sparse-checkout", setup: [][]string{{"sparse-checkout", "set", "people"}},
			says: []string{"worktreeConfig", "git sparse-checkout disable", "git config --unset extensions.worktreeConfig"},
			fix:  [][]string{{"sparse-checkout", "disable"}, {"config", "--unset", "extensions.worktreeConfig"}, {"config", "--unset", "core.sparseCheckout"}}},
		{name: "git sparse-checkout while open", openBefore: true, setup: [][]string{{"sparse-checkout", "set", "people"}},
			says: []string{"skip-worktree", "git sparse-checkout disable"},
			fix:  [][]string{{"sparse-checkout", "disable"}, {"config", "--unset", "extensions.worktreeConfig"}, {"config", "--unset", "core.sparseCheckout"}}},
		{name: "sparse index", openBefore: true, setup: [][]string{{"sparse-checkout", "set", "--sparse-index", "people"}},
			says: []string{"sparse index", "git sparse-checkout disable"},
			fix:  [][]string{{"sparse-checkout", "disable"}, {"config", "--unset", "extensions.worktreeConfig"}, {"config", "--unset", "core.sparseCheckout"}}},
		{name: "skip-worktree by hand", setup: [][]string{{"update-index", "--skip-worktree", "b.md"}},
			says: []string{"1 file is marked skip-worktree", "git update-index --no-skip-worktree -- b.md"},
			fix:  [][]string{{"update-index", "--no-skip-worktree", "--", "b.md"}}},
		{name: "assume-unchanged", setup: [][]string{{"update-index", "--assume-unchanged", "b.md", "a.md"}},
			says: []string{"2 files are marked assume-unchanged", "git update-index --no-assume-unchanged -- a.md"},
			fix:  [][]string{{"update-index", "--no-assume-unchanged", "--", "a.md", "b.md"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, r := newRepo(t)
			for _, a := range c.setup {
				if a[0] == "!sparse" {
					write(t, dir, map[string]string{".git/info/sparse-checkout": "/people/\n"})
					continue
				}
				run(t, dir, a...)
			}
			write(t, dir, map[string]string{"people/Ada.md": "edited\n", "b.md": "edited\n"})
			gitSays := porcelain(t, dir)
			head := run(t, dir, "rev-parse", "HEAD")
			index, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			var errs []error
			if !c.openBefore {
				v, err := vault.Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { v.Close() })
				if r, err = gitrepo.Open(dir, writer{Vault: v}); err != nil {
					errs = append(errs, err)
				}
			}
			if r != nil && len(errs) == 0 {
				_, statusErr := r.Status(t.Context())
				_, allErr := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all"})
				_, oneErr := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "one", Paths: []vpath.Path{"people/Ada.md"}})
				errs = append(errs, statusErr, allErr, oneErr)
			}
			for _, err := range errs {
				if !errors.Is(err, gitrepo.ErrUnsupportedIndex) {
					t.Fatalf("got %v, want ErrUnsupportedIndex (git status says %v)", err, gitSays)
				}
				for _, s := range c.says {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("the error does not say %q: %v", s, err)
					}
				}
			}
			if got := run(t, dir, "rev-parse", "HEAD"); got != head {
				t.Error("HEAD moved")
			}
			if after, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err != nil || !bytes.Equal(after, index) {
				t.Errorf("the index changed (%v)", err)
			}

			for _, a := range c.fix { // the commands the error names
				if out, err := tryGit(dir, a...); err != nil && a[1] != "--unset" { // --unset of a key not set fails
					t.Fatalf("git %v: %v %s", a, err, out)
				}
			}
			r = open(t, dir)
			compareWithGit(t, dir, "after "+c.fix[0][0], ourStates(t, r))
			if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all"}); err != nil {
				t.Fatal(err)
			}
			if got := porcelain(t, dir); len(got) != 0 {
				t.Errorf("after a commit of everything git status says %v", got)
			}
			run(t, dir, "fsck", "--strict", "--no-progress")
		})
	}
}
