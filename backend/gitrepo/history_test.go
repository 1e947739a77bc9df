package gitrepo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/vpath"
)

func TestDiscardRestoresBytes(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "ruined\n", "b.md": "also ruined", "people/Ada.md": "staged edit\n", "c.md": "untracked\n"})
	run(t, dir, "add", "people/Ada.md")
	if err := os.RemoveAll(filepath.Join(dir, "attachments")); err != nil {
		t.Fatal(err)
	}
	paths := []vpath.Path{"a.md", "b.md", "people/Ada.md", "attachments/x.png", "people/Charles.md"}
	done, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(paths[:4], done); d != "" {
		t.Errorf("discarded (-want +got):\n%s", d)
	}
	for name, want := range base {
		if got := read(t, dir, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if d := cmp.Diff([]string{"?? c.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after discard (-want +got):\n%s", d)
	}
	_, err = r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{"c.md"}})
	if !errors.Is(err, gitrepo.ErrUntracked) || read(t, dir, "c.md") != "untracked\n" {
		t.Fatalf("discarding an untracked file unasked = %v; it must stay", err)
	}
	if _, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{"c.md"}, RemoveUntracked: true}); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "c.md") != "<absent>" || len(porcelain(t, dir)) != 0 {
		t.Errorf("c.md should be gone and the tree clean: %q", porcelain(t, dir))
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// packedRepo writes a history of three commits with git, packs it (packfiles and packed
// refs) and leaves edits pending.
func packedRepo(t *testing.T) (string, *gitrepo.Repo) {
	dir := filepath.Join(t.TempDir(), "vault")
	write(t, dir, base)
	write(t, dir, map[string]string{".gitignore": "*.tmp\n"})
	run(t, dir, "init", "-q")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "one")
	for i := 2; i <= 3; i++ {
		write(t, dir, map[string]string{"a.md": base["a.md"] + strings.Repeat("more\n", i)})
		run(t, dir, "commit", "-q", "-am", "edit "+strconv.Itoa(i))
	}
	run(t, dir, "tag", "v3")
	run(t, dir, "gc", "-q", "--aggressive")
	if _, err := os.Stat(filepath.Join(dir, ".git", "packed-refs")); err != nil {
		t.Fatalf("git gc left no packed-refs: %v", err)
	}
	if n := strings.TrimSpace(run(t, dir, "count-objects")); !strings.HasPrefix(n, "0 objects") {
		t.Fatalf("loose objects remain after gc: %s", n)
	}
	write(t, dir, map[string]string{"a.md": "# A\n\nfirst line\nchanged line\nmore\nmore\nmore\n", "junk.tmp": "ignored", "n.md": "new\n"})
	return dir, open(t, dir)
}

func TestReadsRepositoryWrittenByGit(t *testing.T) {
	dir, r := packedRepo(t)
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []gitrepo.Change{{Path: "a.md", State: gitrepo.Modified}, {Path: "n.md", State: gitrepo.Untracked}}
	if d := cmp.Diff(want, st); d != "" {
		t.Errorf("Status (-want +got):\n%s", d)
	}
	log, err := r.Log(t.Context(), "a.md", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range log {
		got = append(got, c.Hash+" "+c.Subject)
	}
	if d := cmp.Diff(strings.Split(strings.TrimSpace(run(t, dir, "log", "--format=%H %s", "--", "a.md")), "\n"), got); d != "" {
		t.Errorf("Log(a.md) against git log (-want +got):\n%s", d)
	}
	if len(log) == 0 || len(log[0].Tags) != 1 || log[0].Tags[0] != "v3" {
		t.Errorf("the newest commit should carry tag v3: %+v", log)
	}
	if one, _ := r.Log(t.Context(), "people/Ada.md", 5); len(one) != 1 || one[0].Subject != "one" {
		t.Errorf("Log(people/Ada.md) = %+v, want the first commit only", one)
	}
	checkDiff(t, dir, r)
}

// checkDiff proves Diff right by git's judgement: git apply takes the patch back.
func checkDiff(t *testing.T, dir string, r *gitrepo.Repo) {
	t.Helper()
	d, err := r.Diff(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "-second line\n+changed line\n") || !strings.Contains(d, "+new\n") {
		t.Errorf("diff lacks the changed lines:\n%s", d)
	}
	patch := filepath.Join(t.TempDir(), "p.diff")
	if err := os.WriteFile(patch, []byte(d), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "apply", "--check", "-R", patch)
	stats, err := r.DiffStat(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stats {
		got = append(got, strconv.Itoa(s.Added)+"\t"+strconv.Itoa(s.Deleted)+"\t"+string(s.Path))
	}
	run(t, dir, "add", "-N", "n.md")
	want := strings.Split(strings.TrimSpace(run(t, dir, "diff", "--numstat")), "\n")
	run(t, dir, "reset", "-q", "n.md")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("DiffStat against git diff --numstat (-want +got):\n%s", d)
	}
	if one, _ := r.Diff(t.Context(), "people/Ada.md"); one != "" {
		t.Errorf("a clean note has a diff: %q", one)
	}
}

func TestLogOfEmptyRepository(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	r := open(t, dir)
	if log, err := r.Log(t.Context(), "", 10); err != nil || len(log) != 0 {
		t.Errorf("Log of a repository without commits = %v, %v", log, err)
	}
	write(t, dir, map[string]string{"first.md": "hello\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "first"}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"second.md": "hello\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "second", Author: &gitrepo.Signature{Name: "Ada", Email: "ada@example.com"}}); err != nil {
		t.Fatal(err)
	}
	want := "second|Ada|ada@example.com|" + vaulttest.TestName + "\nfirst|" + vaulttest.TestName + "|" + vaulttest.TestEmail + "|" + vaulttest.TestName + "\n"
	if got := run(t, dir, "log", "--format=%s|%an|%ae|%cn"); got != want {
		t.Errorf("git log = %q, want %q", got, want)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

func TestRenames(t *testing.T) {
	dir, r := newRepo(t)
	if err := os.Rename(filepath.Join(dir, "people", "Charles.md"), filepath.Join(dir, "people", "Charles Babbage.md")); err != nil {
		t.Fatal(err)
	}
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []gitrepo.Change{{Path: "people/Charles Babbage.md", State: gitrepo.Renamed, From: "people/Charles.md"}}
	if d := cmp.Diff(want, st); d != "" {
		t.Fatalf("Status after a rename (-want +got):\n%s", d)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "rename"}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "show", "--name-status", "-M", "--format=", "HEAD"); got != "R100\tpeople/Charles.md\tpeople/Charles Babbage.md\n" {
		t.Errorf("git sees the commit as %q, want a rename", got)
	}
	if err := os.Rename(filepath.Join(dir, "a.md"), filepath.Join(dir, "A2.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{"A2.md", "a.md"}, RemoveUntracked: true}); err != nil {
		t.Fatal(err)
	}
	if read(t, dir, "a.md") != base["a.md"] || read(t, dir, "A2.md") != "<absent>" || len(porcelain(t, dir)) != 0 {
		t.Errorf("discarding a rename should bring a.md back and remove A2.md: %q", porcelain(t, dir))
	}
}

// A note over MaxDiffBytes is named in the diff, marked too large, and not diffed
// line by line (which could take minutes); small notes beside it are diffed as usual.
func TestDiffOfAHugeNote(t *testing.T) {
	dir, r := newRepo(t)
	huge := strings.Repeat("a line of a very long note\n", gitrepo.MaxDiffBytes/20)
	write(t, dir, map[string]string{"a.md": "# A\n\nfirst line\nchanged line\n", "people/Charles.md": huge})
	start := time.Now()
	d, err := r.Diff(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "+changed line\n") || !strings.Contains(d, "people/Charles.md") || strings.Contains(d, "+a line of a very long note") {
		t.Errorf("diff:\n%.2000s", d)
	}
	stats, err := r.DiffStat(t.Context(), "people/Charles.md")
	if err != nil || len(stats) != 1 || !stats[0].TooLarge || stats[0].Added != 0 {
		t.Errorf("DiffStat = %+v, %v", stats, err)
	}
	t.Logf("diffed in %v", time.Since(start))
}
