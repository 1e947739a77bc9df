package gitrepo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// TestCommitWithoutSymlinks: with core.symlinks false (git's setting where links
// cannot be made: Windows, some network drives), git checks a link out as a plain file
// holding its target. Status takes such a file for the link, as git status does; an
// edited one is committed as a link to the file's text, as git commit makes it; and
// with the setting true the file is a type change again.
func TestCommitWithoutSymlinks(t *testing.T) {
	dir, _ := newRepo(t)
	if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "link.md")
	run(t, dir, "commit", "-q", "-m", "a link")
	run(t, dir, "config", "core.symlinks", "false")
	if err := os.Remove(filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"link.md": "a.md"}) // as git checks it out without links
	r := open(t, dir)
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "core.symlinks false, the link a file", statesOf(st))

	write(t, dir, map[string]string{"link.md": "people/Ada.md"})
	st, err = r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "core.symlinks false, the file edited", statesOf(st))
	scratch := filepath.Join(t.TempDir(), "index")
	copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	addEach(t, dir, env, []string{"link.md"})
	wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{"link.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
		t.Errorf("with core.symlinks false the commit's tree is\n%swhere git makes\n%s", run(t, dir, "ls-tree", "-r", "HEAD"), gitWith(t, dir, env, "ls-tree", "-r", wantTree))
	}
	if got := run(t, dir, "ls-tree", "HEAD", "link.md"); !strings.HasPrefix(got, "120000 ") {
		t.Errorf("link.md is committed as %q, want a link", got)
	}
	compareWithGit(t, dir, "core.symlinks false, after the commit", ourStates(t, r))

	run(t, dir, "config", "core.symlinks", "true")
	st, err = r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "core.symlinks true", statesOf(st))
}

// TestSymlinksNeverFollowed: links in the vault, one to a note outside it, one to a
// folder outside it and one to a folder inside it, are what git makes of them: status
// shows each link (never what it points at), a commit of every change stores each as a
// link blob holding its target (the outside note's text is never read), and a tracked
// note whose folder became a link counts as deleted, as git counts a path beyond a
// link, and is committed as a deletion rather than read through the link.
func TestSymlinksNeverFollowed(t *testing.T) {
	dir, r := newRepo(t)
	tr := gitrepo.NewTracker(r)
	if _, err := tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.md": "SECRET TEXT\n", "folder/inner.md": "inner\n"})
	for link, target := range map[string]string{
		"out.md":     filepath.Join(outside, "secret.md"),
		"outdir":     filepath.Join(outside, "folder"),
		"rel-out.md": "../../" + filepath.Base(outside) + "/secret.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	// people/ becomes a link to a folder holding the same notes: git no longer
	// sees people/Ada.md and people/Charles.md, which lie beyond a link.
	if err := os.Rename(filepath.Join(dir, "people"), filepath.Join(dir, "people-real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("people-real", filepath.Join(dir, "people")); err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "links to outside the vault", ourStates(t, r))
	tr.Touch("people/Ada.md") // told of the note alone, the Tracker must not read it through the link
	st, err := tr.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := statesOf(st)["people/Ada.md"]; got != gitrepo.Deleted {
		t.Errorf("a Tracker told of people/Ada.md, beyond a link, says %q; git says deleted", got)
	}
	for _, p := range []string{"out.md", "outdir", "rel-out.md", "people", "people/Charles.md", "people-real"} {
		tr.Touch(p) // as the watcher tells it
	}
	if st, err = tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "links to outside the vault, through a Tracker", statesOf(st))

	// A commit naming a note beyond the link commits its deletion, never the file
	// the link leads to.
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{"people/Ada.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "ls-tree", "-r", "HEAD", "--", "people/Ada.md"); got != "" {
		t.Errorf("a commit of people/Ada.md, beyond a link, left in HEAD:\n%s", got)
	}
	compareWithGit(t, dir, "after a commit of a note beyond a link", ourStates(t, r))

	scratch := filepath.Join(t.TempDir(), "index")
	copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	gitWith(t, dir, env, "add", "-A")
	wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "links"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
		t.Errorf("the commit's tree is\n%swhere git makes\n%s", run(t, dir, "ls-tree", "-r", "HEAD"), gitWith(t, dir, env, "ls-tree", "-r", wantTree))
	}
	tree := run(t, dir, "ls-tree", "-r", "HEAD")
	for _, link := range []string{"out.md", "outdir", "rel-out.md", "people"} {
		if !strings.Contains(tree, "120000 blob") || !strings.Contains(tree, "\t"+link+"\n") {
			t.Errorf("%s is not committed as a link:\n%s", link, tree)
		}
	}
	if strings.Contains(tree, "people/Ada.md") {
		t.Errorf("a note beyond a link is still committed:\n%s", tree)
	}
	if out, err := tryGit(dir, "grep", "-l", "SECRET", "HEAD"); err == nil {
		t.Errorf("the outside note's text was committed: %s", out)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
	compareWithGit(t, dir, "after the commit", ourStates(t, r))
}
