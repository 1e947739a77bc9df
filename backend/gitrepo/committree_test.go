package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestCommitTree: the fast reader finds the tree of loose and packed commits as git
// names it, and declines what it does not read (so that go-git answers).
func TestCommitTree(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@invalid", "-c", "gc.auto=0"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	var commits []string
	for i := range 40 {
		if err := os.WriteFile(filepath.Join(dir, "n.md"), []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "n.md")
		git("commit", "-qm", "c")
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	r, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		for _, c := range commits {
			want := git("rev-parse", c+"^{tree}")
			got, ok := r.commitTree(plumbing.NewHash(c))
			if !ok || got.String() != want {
				t.Fatalf("%s: commitTree(%s) = %s, %v; git says %s", when, c, got, ok, want)
			}
		}
		head, err := r.headTreeHash()
		if err != nil || head.String() != git("rev-parse", "HEAD^{tree}") {
			t.Fatalf("%s: headTreeHash = %s, %v", when, head, err)
		}
	}
	check("loose")
	git("gc", "-q", "--aggressive") // packs every commit, older ones possibly as deltas
	check("packed")
	// A hash that is nowhere, and a blob: declined.
	if _, ok := r.commitTree(plumbing.NewHash(strings.Repeat("ab", 20))); ok {
		t.Fatal("commitTree found a hash that is in no pack")
	}
	blob := git("rev-parse", "HEAD:n.md")
	if _, ok := r.commitTree(plumbing.NewHash(blob)); ok {
		t.Fatal("commitTree read a blob as a commit")
	}
}
