package gitrepo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

func TestOpenNotRepository(t *testing.T) {
	_, err := gitrepo.Open(t.TempDir(), nil)
	if !errors.Is(err, gitrepo.ErrNotRepository) {
		t.Fatalf("Open on a plain folder = %v, want ErrNotRepository", err)
	}
}

func TestInitKeepsGitignore(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{".gitignore": "*.tmp", "n.md": "note\n", ".memotree/lock": ""})
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for range 2 { // a second Init changes nothing
		if _, err := gitrepo.Init(t.Context(), dir, writer{Vault: v}); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, dir, ".gitignore"); got != "*.tmp\n.memotree/\n.memotree-tmp-*\n" {
		t.Errorf(".gitignore = %q", got)
	}
	if got := run(t, dir, "symbolic-ref", "--short", "HEAD"); strings.TrimSpace(got) != "main" {
		t.Errorf("branch = %q, want main", got)
	}
	// The temporary file of a write in flight (or one a crash left) is not git's.
	write(t, dir, map[string]string{"sub/" + vault.TempPrefix + "ABC": "half a note"})
	if d := cmp.Diff([]string{"?? .gitignore", "?? journey.yaml", "?? n.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after Init (-want +got):\n%s", d)
	}
}

// A repository MemoTree opens but did not create keeps its .gitignore as it is; its
// own files are excluded through .git/info/exclude, once.
func TestOpenExcludesOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	write(t, dir, map[string]string{".gitignore": "*.tmp\n", "n.md": "note\n"})
	run(t, dir, "init", "-q")
	write(t, dir, map[string]string{".git/info/exclude": "# git's sample\n*.swp"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "initial")
	for range 2 { // a second open adds nothing
		open(t, dir)
	}
	if got, want := read(t, dir, ".git/info/exclude"), "# git's sample\n*.swp\n.memotree/\n"+vault.TempPrefix+"*\n"; got != want {
		t.Errorf(".git/info/exclude = %q, want %q", got, want)
	}
	write(t, dir, map[string]string{"sub/" + vault.TempPrefix + "ABC": "half a note", ".memotree/x": "state"})
	if got := run(t, dir, "status", "--porcelain", "-uall", "--ignored=no"); got != "" {
		t.Errorf("git status after open = %q, want nothing: the .gitignore is the person's, the rest is excluded", got)
	}
}

func TestStatusAgreesWithGit(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n", "new/c.md": "new\n", ".memotree/x": "internal"})
	if err := os.Remove(filepath.Join(dir, "people", "Charles.md")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"staged.md": "staged\n"})
	run(t, dir, "add", "staged.md")
	got, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []gitrepo.Change{
		{Path: "a.md", State: gitrepo.Modified},
		{Path: "new/c.md", State: gitrepo.Untracked},
		{Path: "people/Charles.md", State: gitrepo.Deleted},
		{Path: "staged.md", State: gitrepo.Added},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Status (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{" D people/Charles.md", " M a.md", "?? new/c.md", "A  staged.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
}

func TestSelectiveCommit(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "# A\n\nedited\n", "b.md": "B edited\n", "people/New.md": "# New\n"})
	if err := os.Remove(filepath.Join(dir, "people", "Charles.md")); err != nil {
		t.Fatal(err)
	}
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{
		Message:  "Edit A, add New, drop Charles",
		Paths:    []vpath.Path{"a.md", "people/New.md", "people/Charles.md"},
		Tag:      "v1",
		Trailers: map[string]string{"MemoTree-Actor": "agent", "MemoTree-Turn": "t42"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a.md", "people/Charles.md", "people/New.md"}, lines(run(t, dir, "show", "--name-only", "--format=", "HEAD"))); d != "" {
		t.Errorf("files in the commit (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{" M b.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after the commit (-want +got):\n%s", d)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
	if got := run(t, dir, "log", "-1", "--format=%s|%(trailers:key=MemoTree-Actor,valueonly)|%(trailers:key=MemoTree-Turn,valueonly)"); got != "Edit A, add New, drop Charles|agent\n|t42\n\n" {
		t.Errorf("git log reads %q", got)
	}
	if got := strings.TrimSpace(run(t, dir, "tag", "--points-at", "HEAD")); got != "v1" {
		t.Errorf("tag on HEAD = %q", got)
	}
	if got := run(t, dir, "diff", "--cached", "--name-only"); got != "" {
		t.Errorf("the index differs from HEAD after the commit: %q", got)
	}
	if got := read(t, dir, "b.md"); got != "B edited\n" {
		t.Errorf("an uncommitted file changed: %q", got)
	}
	// git itself commits on top of the index this package wrote.
	run(t, dir, "commit", "-q", "-am", "by git")
	if d := cmp.Diff([]string{"b.md"}, lines(run(t, dir, "show", "--name-only", "--format=", "HEAD"))); d != "" {
		t.Errorf("git's own next commit (-want +got):\n%s", d)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
	// A tag in a folder; the tag's file is written whole, through its lock.
	write(t, dir, map[string]string{"a.md": "# A\n\nagain\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "again", Tag: "release/v2"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, dir, "tag", "--points-at", "HEAD")); got != "release/v2" {
		t.Errorf("tag on HEAD = %q", got)
	}
	if exists(dir, ".git/refs/tags/release/v2.lock") {
		t.Errorf("the tag's lock is left in .git")
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "same tag", Tag: "release/v2"}); !errors.Is(err, gitrepo.ErrTagExists) {
		t.Errorf("a second release/v2 = %v, want ErrTagExists", err)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

func TestCommitRespectsIndexLock(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "x\n", ".git/index.lock": ""})
	head := run(t, dir, "rev-parse", "HEAD")
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m"})
	if !errors.Is(err, gitrepo.ErrIndexLocked) {
		t.Fatalf("Commit while git holds index.lock = %v, want ErrIndexLocked", err)
	}
	if err := os.Remove(filepath.Join(dir, ".git", "index.lock")); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved")
	}
	if d := cmp.Diff([]string{" M a.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
}

func TestCommitEverythingThenNothing(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "x\n", "z.md": "z\n", ".memotree/sessions/s.json": "{}"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all"}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a.md", "z.md"}, lines(run(t, dir, "show", "--name-only", "--format=", "HEAD"))); d != "" {
		t.Errorf("files in the commit (-want +got):\n%s", d)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after committing everything: %q", got)
	}
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "again"})
	if !errors.Is(err, gitrepo.ErrNothingToCommit) {
		t.Errorf("second commit = %v, want ErrNothingToCommit", err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "t", Paths: []vpath.Path{"a.md"}, Tag: "bad tag"}); !errors.Is(err, gitrepo.ErrInvalidTag) {
		t.Errorf("a tag with a space = %v, want ErrInvalidTag", err)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

func TestHostilePaths(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "pending\n"})
	head := run(t, dir, "rev-parse", "HEAD")
	before := porcelain(t, dir)
	config := read(t, dir, ".git/config")
	for _, p := range []vpath.Path{"../outside.md", ".git/config", "a\x00b.md", "/etc/passwd", "./a.md", ".memotree/lock"} {
		_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{p}})
		if !errors.Is(err, gitrepo.ErrInvalidPath) {
			t.Errorf("Commit(%q) = %v, want ErrInvalidPath", p, err)
		}
		if _, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{p}, RemoveUntracked: true}); !errors.Is(err, gitrepo.ErrInvalidPath) {
			t.Errorf("Discard(%q) = %v, want ErrInvalidPath", p, err)
		}
		if _, err := r.Diff(t.Context(), p); !errors.Is(err, gitrepo.ErrInvalidPath) {
			t.Errorf("Diff(%q) = %v, want ErrInvalidPath", p, err)
		}
		if _, err := r.Log(t.Context(), p, 1); !errors.Is(err, gitrepo.ErrInvalidPath) {
			t.Errorf("Log(%q) = %v, want ErrInvalidPath", p, err)
		}
	}
	if got := run(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved")
	}
	if d := cmp.Diff(before, porcelain(t, dir)); d != "" {
		t.Errorf("git status changed (-want +got):\n%s", d)
	}
	if read(t, dir, ".git/config") != config || read(t, dir, "a.md") != "pending\n" {
		t.Errorf("files changed")
	}
}
