package gitrepo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
)

// noIdentity leaves git's configuration without a name or email: no system file, a
// global file that does not exist, an empty home.
func noIdentity(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	unset(t, "XDG_CONFIG_HOME")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "none"))
	return home
}

// unset removes an environment variable for the test.
func unset(t *testing.T, key string) {
	t.Setenv(key, "")
	os.Unsetenv(key)
}

// TestCommitWithoutIdentityIsRefused: where git refuses to commit, so does MemoTree,
// saying how to set the identity; nothing moves.
func TestCommitWithoutIdentityIsRefused(t *testing.T) {
	noIdentity(t)
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "x\n"})
	head := run(t, dir, "rev-parse", "HEAD")
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m"})
	if !errors.Is(err, gitrepo.ErrNoIdentity) || !strings.Contains(err.Error(), "git config user.email") {
		t.Fatalf("commit without an identity = %v, want ErrNoIdentity saying how to set it", err)
	}
	cmd := gitCmd(dir)
	cmd.Env = os.Environ()
	cmd.Args = []string{"git", "-c", "user.useConfigOnly=true", "commit", "-q", "--allow-empty", "-m", "m"} // no test identity, no guess
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("git itself committed without an identity:\n%s", out)
	}
	if run(t, dir, "rev-parse", "HEAD") != head || len(porcelain(t, dir)) != 1 {
		t.Error("HEAD or the working tree changed")
	}
	// The panel sets it in the repository's configuration, keeping what is there.
	cfg := filepath.Join(dir, ".git", "config")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, "# the person's comment\n[alias]\n\tst = status\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.SetIdentity("Ada \"the Countess\" Lovelace", "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "config", "--local", "user.name"); got != "Ada \"the Countess\" Lovelace\n" {
		t.Errorf("git config user.name = %q", got)
	}
	if got := run(t, dir, "config", "alias.st"); got != "status\n" || !strings.Contains(read(t, dir, ".git/config"), "# the person's comment") {
		t.Errorf("the rest of .git/config was not kept:\n%s", read(t, dir, ".git/config"))
	}
	if err := r.SetIdentity("Ada Lovelace", "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "config", "--local", "--get-all", "user.email"); got != "ada@example.org\n" {
		t.Errorf("user.email after a second SetIdentity = %q", got)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m"}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "log", "-1", "--format=%an <%ae> %cn <%ce>"); got != "Ada Lovelace <ada@example.org> Ada Lovelace <ada@example.org>\n" {
		t.Errorf("git log = %q", got)
	}
	for _, bad := range [][2]string{{"", "a@b"}, {"A", ""}, {"A <x>", "a@b"}, {"A", "not an address"}} {
		if err := r.SetIdentity(bad[0], bad[1]); err == nil {
			t.Errorf("SetIdentity(%q, %q) was accepted", bad[0], bad[1])
		}
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestIdentityAsGitFindsIt: the environment before the repository's configuration,
// before the global files (GIT_CONFIG_GLOBAL alone when set; else ~/.gitconfig over
// $XDG_CONFIG_HOME/git/config), with author.* and committer.* over user.*, includes
// followed, and every case checked against the git command's own `git var`.
func TestIdentityAsGitFindsIt(t *testing.T) {
	home := noIdentity(t)
	dir, r := newRepo(t)
	xdg := filepath.Join(home, "xdg")
	gitVar := func() string {
		cmd := gitCmd(dir)
		cmd.Env = os.Environ() // the configuration the test set, as MemoTree sees it
		cmd.Args = []string{"git", "-c", "user.useConfigOnly=true", "var", "GIT_AUTHOR_IDENT"}
		a, err := cmd.Output()
		if err != nil {
			return "refused"
		}
		cmd = gitCmd(dir)
		cmd.Env = os.Environ()
		cmd.Args = []string{"git", "-c", "user.useConfigOnly=true", "var", "GIT_COMMITTER_IDENT"}
		c, err := cmd.Output()
		if err != nil {
			return "refused"
		}
		strip := func(b []byte) string { // "Name <email> 1700000000 +0000"
			s := strings.TrimSpace(string(b))
			return s[:strings.LastIndexByte(s[:strings.LastIndexByte(s, ' ')], ' ')]
		}
		return strip(a) + " / " + strip(c)
	}
	ours := func() string {
		id, err := r.Identity()
		if errors.Is(err, gitrepo.ErrNoIdentity) {
			return "refused"
		}
		if err != nil {
			t.Fatal(err)
		}
		return id.Author.Name + " <" + id.Author.Email + "> / " + id.Committer.Name + " <" + id.Committer.Email + ">"
	}
	steps := []struct {
		what string
		do   func()
		want string
	}{
		{"nothing configured", func() {}, "refused"},
		{"XDG file", func() {
			unset(t, "GIT_CONFIG_GLOBAL")
			t.Setenv("XDG_CONFIG_HOME", xdg)
			write(t, xdg, map[string]string{"git/config": "[user]\n\tname = Xdg\n\temail = xdg@example.com\n"})
		}, "Xdg <xdg@example.com> / Xdg <xdg@example.com>"},
		{"~/.gitconfig over the XDG file", func() {
			write(t, home, map[string]string{".gitconfig": "[user]\n\tname = Home\n[include]\n\tpath = ~/more.inc\n",
				"more.inc": "[user]\n\temail = home@example.com\n"})
		}, "Home <home@example.com> / Home <home@example.com>"},
		{"repository over global, author and committer apart", func() {
			run(t, dir, "config", "user.name", "Repo")
			run(t, dir, "config", "committer.email", "committer@example.com")
		}, "Repo <home@example.com> / Repo <committer@example.com>"},
		{"includeIf gitdir", func() {
			write(t, home, map[string]string{".gitconfig": "[user]\n\tname = Home\n\temail = home@example.com\n[includeIf \"gitdir:" + dir + "/\"]\n\tpath = work.inc\n",
				"work.inc": "[author]\n\tname = Work\n"})
		}, "Work <home@example.com> / Repo <committer@example.com>"},
		{"environment over everything", func() {
			t.Setenv("GIT_AUTHOR_NAME", "Env Author")
			t.Setenv("GIT_COMMITTER_EMAIL", "env@example.com")
		}, "Env Author <home@example.com> / Repo <env@example.com>"},
		{"GIT_CONFIG_GLOBAL alone", func() {
			os.Unsetenv("GIT_AUTHOR_NAME")
			os.Unsetenv("GIT_COMMITTER_EMAIL")
			run(t, dir, "config", "--unset", "user.name")
			run(t, dir, "config", "--unset", "committer.email")
			write(t, home, map[string]string{"only.cfg": "[user]\n\tname = Only\n\temail = only@example.com\n"})
			t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "only.cfg"))
		}, "Only <only@example.com> / Only <only@example.com>"},
	}
	for _, s := range steps {
		s.do()
		g, o := gitVar(), ours()
		if g != s.want {
			t.Fatalf("%s: git var says %q, the test expected %q", s.what, g, s.want)
		}
		if o != g {
			t.Errorf("%s: Identity = %q, git says %q", s.what, o, g)
		}
	}
}

// TestPullThatMergesNeedsAnIdentity: a pull that must make a merge commit is refused
// without an identity before it writes a file; a fast-forward needs none.
func TestPullThatMergesNeedsAnIdentity(t *testing.T) {
	remote, a, b := clones(t)
	c := filepath.Join(filepath.Dir(a), "c")
	run(t, filepath.Dir(a), "clone", "-q", "file://"+remote, c)
	ra, rb, rc := open(t, a), open(t, b), open(t, c)
	edit(t, a, "n1.md", "one", "one from A")
	commitAll(t, ra, "A")
	if _, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	edit(t, b, "n2.md", "two", "two from B")
	commitAll(t, rb, "B")
	before, head := read(t, b, "n1.md"), run(t, b, "rev-parse", "HEAD")
	noIdentity(t)
	if _, err := rb.Pull(t.Context(), gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrNoIdentity) {
		t.Fatalf("a merging pull without an identity = %v, want ErrNoIdentity", err)
	}
	if read(t, b, "n1.md") != before || run(t, b, "rev-parse", "HEAD") != head || len(porcelain(t, b)) != 0 {
		t.Error("the refused pull changed the working tree or HEAD")
	}
	if res, err := rc.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Errorf("a fast-forward without an identity = %+v, %v", res, err)
	}
}
