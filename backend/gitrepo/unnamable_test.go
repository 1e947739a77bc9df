package gitrepo_test

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// TestCommitAllLeavesOutBackslashNames: an untracked file whose name holds a
// backslash (made outside MemoTree, which refuses such names) and a tracked one git
// committed are left out of a commit of every pending change, with a warning naming
// each; the other changes are committed and the two stay pending, as git shows.
// Naming such a file is still refused with the reason.
func TestCommitAllLeavesOutBackslashNames(t *testing.T) {
	dir, _ := newRepo(t)
	write(t, dir, map[string]string{`old\name.md`: "# Old\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "a name git takes on Linux")
	r := open(t, dir)
	write(t, dir, map[string]string{`notes\idea.md`: "# Idea\n", "a.md": "# A\n\nedited\n", `old\name.md`: "# Old\n\nedited\n"})
	res, err := r.CommitPending(t.Context(), []gitrepo.ChangeSet{{Changes: mustStatus(t, r)}}, gitrepo.PendingCommit{Message: "all"})
	if err != nil {
		t.Fatalf("commit all: %v", err)
	}
	if got := gitrepo.Paths(res.Changes); len(got) != 1 || got[0] != "a.md" {
		t.Fatalf("committed %v, want a.md alone", got)
	}
	for _, name := range []string{`notes\idea.md`, `old\name.md`} {
		found := false
		for _, w := range res.Warnings {
			found = found || strings.Contains(w, name) && strings.Contains(w, "backslash")
		}
		if !found {
			t.Errorf("no warning names %s: %q", name, res.Warnings)
		}
	}
	if got := strings.Join(porcelain(t, dir), "\n"); got != ` M "old\\name.md"`+"\n"+`?? "notes\\idea.md"` {
		t.Fatalf("git status after the commit:\n%s", got)
	}
	_, err = r.CommitPending(t.Context(), []gitrepo.ChangeSet{{Changes: mustStatus(t, r)}},
		gitrepo.PendingCommit{Message: "named", Paths: []vpath.Path{`notes\idea.md`}})
	if err == nil || !strings.Contains(err.Error(), "backslash") {
		t.Fatalf("a commit naming the file: %v, want a refusal naming the backslash", err)
	}
}
