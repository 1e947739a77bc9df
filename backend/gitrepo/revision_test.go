package gitrepo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
)

func TestShowAndRestore(t *testing.T) {
	dir, _ := newRepo(t)
	first := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
	write(t, dir, map[string]string{"a.md": "# A\n\nsecond version\n"})
	run(t, dir, "commit", "-q", "-am", "second")
	run(t, dir, "tag", "v2")
	run(t, dir, "gc", "-q") // packfiles and packed refs, as git leaves them
	write(t, dir, map[string]string{"a.md": "# A\n\nwork in progress\n"})
	r := open(t, dir)
	ctx := t.Context()

	for _, rev := range []string{first, first[:8], "HEAD~1", "main~1"} {
		got, err := r.Show(ctx, "a.md", rev)
		if err != nil || string(got) != run(t, dir, "show", first+":a.md") {
			t.Errorf("Show(a.md, %s) = %q, %v", rev, got, err)
		}
	}
	if got, err := r.Show(ctx, "a.md", "v2"); err != nil || string(got) != "# A\n\nsecond version\n" {
		t.Errorf("Show at tag v2 = %q, %v", got, err)
	}
	if _, err := r.Show(ctx, "a.md", "no-such-branch"); !errors.Is(err, gitrepo.ErrNoRevision) {
		t.Errorf("Show at a missing revision = %v, want ErrNoRevision", err)
	}
	if _, err := r.Show(ctx, "nowhere.md", "HEAD"); !errors.Is(err, gitrepo.ErrNotInRevision) {
		t.Errorf("Show of a missing path = %v, want ErrNotInRevision", err)
	}
	if _, err := r.Show(ctx, ".git/config", "HEAD"); !errors.Is(err, gitrepo.ErrInvalidPath) {
		t.Errorf("Show of .git/config = %v, want ErrInvalidPath", err)
	}

	changed, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: "a.md", Rev: first, Actor: "user", Op: "git_restore"})
	if err != nil || !changed {
		t.Fatalf("Restore = %v, %v", changed, err)
	}
	if got := read(t, dir, "a.md"); got != base["a.md"] {
		t.Errorf("a.md after Restore = %q, want the first version", got)
	}
	// Restored into the working tree, not staged: a pending change to review.
	if d := cmp.Diff([]string{" M a.md", "?? journey.yaml"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after Restore (-want +got):\n%s", d)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	j, _, err := v.Journey()
	if err != nil || len(j) != 1 || j[0].Actor != "user" || j[0].Op != "git_restore" || j[0].Entities[0] != "a.md" {
		t.Errorf("journey after Restore = %+v, %v", j, err)
	}
	if changed, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: "a.md", Rev: first, Actor: "user"}); err != nil || changed {
		t.Errorf("a second Restore = %v, %v; want no change", changed, err)
	}
	// A deleted note comes back.
	run(t, dir, "rm", "-q", "people/Charles.md")
	if _, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: "people/Charles.md", Rev: "HEAD", Actor: "user"}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "people/Charles.md"); got != base["people/Charles.md"] {
		t.Errorf("restored deleted note = %q", got)
	}
	if _, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: "nowhere.md", Rev: "HEAD"}); !errors.Is(err, gitrepo.ErrNotInRevision) {
		t.Errorf("Restore of a path the revision lacks = %v", err)
	}
}

func TestIsRepositoryAndInit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"n.md": "note\n"})
	if gitrepo.IsRepository(dir) {
		t.Fatal("a plain folder is a repository")
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	r, err := gitrepo.Init(t.Context(), dir, writer{Vault: v})
	if err != nil {
		t.Fatal(err)
	}
	if !gitrepo.IsRepository(dir) {
		t.Fatal("not a repository after Init")
	}
	// The first commit of a fresh repository, checked by git.
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "First"}); err != nil {
		t.Fatal(err)
	}
	if got := lines(run(t, dir, "show", "--name-only", "--format=", "HEAD")); !cmp.Equal(got, []string{".gitignore", "journey.yaml", "n.md"}) {
		t.Errorf("first commit holds %q", got)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after the first commit = %q", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestShowRefusesRevisionsThatNameAFile: a revision is a commit, never a commit and a
// path (HEAD:../../etc/hostname), a range or a search; Show and Restore refuse one
// with ErrNoRevision instead of answering with the file the path argument names.
func TestShowRefusesRevisionsThatNameAFile(t *testing.T) {
	dir, _ := newRepo(t)
	r := open(t, dir)
	ctx := t.Context()
	for _, rev := range []string{"HEAD:../../etc/hostname", "HEAD:a.md", "HEAD:people/Charles.md", ":a.md", "HEAD..HEAD",
		"HEAD^{/A}", ":/A", "HEAD@{0}:a.md", "HEAD\n", " HEAD", "HEAD\x00", "-p", "~1", "^"} {
		got, err := r.Show(ctx, "people/Charles.md", rev)
		if !errors.Is(err, gitrepo.ErrNoRevision) || !strings.Contains(err.Error(), "revision") {
			t.Errorf("Show(people/Charles.md, %q) = %q, %v; want ErrNoRevision", rev, got, err)
		}
		if _, err := r.Restore(ctx, gitrepo.RestoreOptions{Path: "people/Charles.md", Rev: rev, Actor: "user"}); !errors.Is(err, gitrepo.ErrNoRevision) {
			t.Errorf("Restore(people/Charles.md, %q) = %v; want ErrNoRevision", rev, err)
		}
	}
	if got := read(t, dir, "people/Charles.md"); got != base["people/Charles.md"] {
		t.Errorf("people/Charles.md changed: %q", got)
	}
}
