package gitrepo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/vpath"
)

// TestAnnotatedTagAndAuthor: a commit with an author and a tag message is authored
// by that author, committed by git's identity, and tagged with an annotated tag (a
// tag object signed by the committer, carrying the message) that git reads as its
// own; a tag without a message stays lightweight.
func TestAnnotatedTagAndAuthor(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n", "people/Ada.md": "# Ada, edited\n"})
	res, err := r.CommitPending(t.Context(), []gitrepo.ChangeSet{{Changes: mustStatus(t, r)}}, gitrepo.PendingCommit{
		Paths: []vpath.Path{"a.md"}, Message: "Release one", Tag: "v1.0",
		TagMessage: "The first release  \n\nwith its notes\n\n", Author: &gitrepo.Signature{Name: "Ada Lovelace", Email: "ada@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>"); got != "Ada Lovelace <ada@example.com>|"+vaulttest.TestName+" <"+vaulttest.TestEmail+">\n" {
		t.Errorf("author|committer = %q", got)
	}
	if res.Signed.Author.Email != "ada@example.com" || res.Signed.Committer.Email != vaulttest.TestEmail {
		t.Errorf("CommitResult.Signed = %+v", res.Signed)
	}
	if got := run(t, dir, "cat-file", "-t", "v1.0"); got != "tag\n" {
		t.Errorf("git cat-file -t v1.0 = %q, want an annotated tag (a tag object)", got)
	}
	if got := run(t, dir, "rev-parse", "v1.0^{commit}"); strings.TrimSpace(got) != res.Hash.String() {
		t.Errorf("the tag points at %s, want %s", got, res.Hash)
	}
	if got := run(t, dir, "tag", "-n9", "-l", "v1.0"); !strings.Contains(got, "The first release") || !strings.Contains(got, "with its notes") {
		t.Errorf("git tag -n shows %q", got)
	}
	obj := run(t, dir, "cat-file", "tag", "v1.0")
	if !strings.Contains(obj, "\ntagger "+vaulttest.TestName+" <"+vaulttest.TestEmail+"> ") || !strings.HasSuffix(obj, "\n\nThe first release\n\nwith its notes\n") {
		t.Errorf("the tag object:\n%s", obj)
	}
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged twice\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "Two", Paths: []vpath.Path{"a.md"}, Tag: "light"}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "cat-file", "-t", "light"); got != "commit\n" {
		t.Errorf("a tag without a message is %q, want lightweight (the commit itself)", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

func mustStatus(t *testing.T, r *gitrepo.Repo) []gitrepo.Change {
	t.Helper()
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestBadAuthorCommitsNothing: an author without a name or an email, or with an
// email that is no address, is refused before anything is committed.
func TestBadAuthorCommitsNothing(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "changed\n"})
	head := run(t, dir, "rev-parse", "HEAD")
	for _, a := range []gitrepo.Signature{
		{Name: "Ada", Email: ""}, {Name: "", Email: "ada@example.com"}, {Name: "Ada", Email: "ada"},
		{Name: "Ada", Email: "ada@"}, {Name: "Ada", Email: "@example.com"}, {Name: "Ada", Email: "ada lovelace@example.com"},
		{Name: "Ada", Email: "ada@@example.com"}, {Name: "Ada <x>", Email: "ada@example.com"}, {Name: "Ada", Email: "<ada@example.com>"},
		{Name: "Ada\nEvil", Email: "ada@example.com"}, {Name: "Ada", Email: "ada@example..com."}, {Name: "Ada\x01", Email: "ada@example.com"},
	} {
		_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Author: &a})
		if !errors.Is(err, gitrepo.ErrInvalidAuthor) {
			t.Errorf("author %q <%q>: err = %v, want ErrInvalidAuthor", a.Name, a.Email, err)
		}
	}
	if got := run(t, dir, "rev-parse", "HEAD"); got != head {
		t.Error("a commit with a bad author was made")
	}
	for _, a := range []gitrepo.Signature{{Name: "Ada Lovelace", Email: "ada@example.com"}, {Name: "李雷", Email: "li.lei+notes@mail.example.cn"}} {
		if err := gitrepo.CheckAuthor(a); err != nil {
			t.Errorf("CheckAuthor(%+v) = %v, want it accepted", a, err)
		}
	}
}

// TestTagNamesAsGitJudgesThem compares the tag names a commit accepts with those git
// accepts (`git check-ref-format` and `git tag` itself) for names at every rule's edge.
func TestTagNamesAsGitJudgesThem(t *testing.T) {
	dir, _ := newRepo(t)
	names := []string{"v1", "v1.2.3", "release/2026-11", "before-cleanup", "ü-tag", "a..b", "a b", "a~b", "a^b", "a:b",
		"a?b", "a*b", "a[b", `a\b`, "a/", "/a", "a//b", "a.lock", "a/.b", ".a", "a.", "@", "a@{b", "-a", "a\x7f", "x.lock/y",
		"a/b.lock/c", "a\x01b", "é/ü", "HEAD", "v1@", "a@b", "{}", "a\tb", "", "..", "a/./b", strings.Repeat("x", 200)}
	for _, n := range names {
		if n == "" {
			continue
		}
		gitOK := true
		if _, err := tryGit(dir, "check-ref-format", "refs/tags/"+n); err != nil {
			gitOK = false
		}
		// "--" so that a name such as "-a" is a name, as MemoTree takes it, not an
		// option (git tag -a would open an editor).
		if _, err := tryGit(dir, "tag", "--", n, "HEAD"); err != nil {
			gitOK = false
		} else {
			run(t, dir, "tag", "-d", "--", n)
		}
		ours := gitrepo.ValidTag(n) == nil
		if ours != gitOK {
			t.Errorf("tag name %q: ours accepts=%v, git accepts=%v", n, ours, gitOK)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "tags", "v1")); !os.IsNotExist(err) {
		t.Errorf("a test tag was left behind: %v", err)
	}
}

// TestTagThatExistsCommitsNothing: a tag name in use (made by git) refuses the commit
// before anything is written.
func TestTagThatExistsCommitsNothing(t *testing.T) {
	dir, r := newRepo(t)
	run(t, dir, "tag", "-a", "-m", "by git", "taken")
	write(t, dir, map[string]string{"a.md": "changed\n"})
	head := run(t, dir, "rev-parse", "HEAD")
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Tag: "taken", TagMessage: "mine"})
	if !errors.Is(err, gitrepo.ErrTagExists) {
		t.Fatalf("err = %v, want ErrTagExists", err)
	}
	if run(t, dir, "rev-parse", "HEAD") != head || !strings.Contains(run(t, dir, "tag", "-n1", "-l", "taken"), "by git") {
		t.Error("the commit or the tag changed")
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", TagMessage: "no tag"}); err == nil || !strings.Contains(err.Error(), "tag") {
		t.Errorf("a tag message without a tag: %v", err)
	}
}
