package gitrepo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// TestSetIdentityKeepsTheConfigFile: .git/config keeps its permissions (it may hold a
// remote's credentials, so a person makes it private), and a git command changing the
// configuration while SetIdentity writes it either waits for the lock or keeps its
// change: neither is lost.
func TestSetIdentityKeepsTheConfigFile(t *testing.T) {
	noIdentity(t)
	dir, r := newRepo(t)
	cfg := filepath.Join(dir, ".git", "config")
	if err := os.Chmod(cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	var gitErr error
	gitrepo.PauseAfterConfigRead(func() {
		_, gitErr = tryGit(dir, "config", "core.fromgit", "kept")
	})
	defer gitrepo.PauseAfterConfigRead(nil)
	if err := r.SetIdentity("Ada Lovelace", "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf(".git/config is %v after SetIdentity, was -rw-------", fi.Mode().Perm())
	}
	if got, _ := tryGit(dir, "config", "core.fromgit"); gitErr == nil && got != "kept\n" {
		t.Errorf("git config succeeded while SetIdentity wrote .git/config, and its change was lost:\n%s", read(t, dir, ".git/config"))
	}
	if got := run(t, dir, "config", "--local", "user.name"); got != "Ada Lovelace\n" {
		t.Errorf("user.name = %q", got)
	}
}

// TestConfigSyntaxAsGitReadsIt: a global configuration written in each form git's
// syntax allows gives the identity `git var` gives: a byte order mark, CRLF, a key on
// its section's line, a value joined over lines, quotes and escapes, comments,
// subsections in both forms (neither is [user]), includes relative to the including
// file and later keys over included ones, and includeIf by a bracket expression and by
// the repository's real path (the test folder reached through a symbolic link).
func TestConfigSyntaxAsGitReadsIt(t *testing.T) {
	home := noIdentity(t)
	real := t.TempDir()
	dir := filepath.Join(real, "vault")
	write(t, dir, base)
	run(t, dir, "init", "-q")
	linked := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, linked); err != nil {
		t.Fatal(err)
	}
	r := open(t, filepath.Join(linked, "vault"))
	gitVar := func() string {
		cmd := gitCmd(dir)
		cmd.Env = os.Environ()
		cmd.Args = []string{"git", "-c", "user.useConfigOnly=true", "var", "GIT_AUTHOR_IDENT"}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "refused: " + strings.TrimSpace(string(out))
		}
		s := strings.TrimSpace(string(out))
		return s[:strings.LastIndexByte(s[:strings.LastIndexByte(s, ' ')], ' ')] // no date
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"byte order mark", map[string]string{".gitconfig": "\ufeff[user]\n\tname = Bom\n\temail = b@x.y\n"}, "Bom <b@x.y>"},
		{"CRLF", map[string]string{".gitconfig": "[user]\r\n\tname = Crlf\r\n\temail = c@x.y\r\n"}, "Crlf <c@x.y>"},
		{"a key on the header's line", map[string]string{".gitconfig": "[user] name = Same Line\n\temail = s@x.y\n"}, "Same Line <s@x.y>"},
		{"a value over two lines", map[string]string{".gitconfig": "[user]\n\tname = Con\\\ntinued  Name \n\temail = c@x.y\n"}, "Continued  Name <c@x.y>"},
		{"quotes, escapes and comments", map[string]string{".gitconfig": "[User]\n\tNAME = \"A \\\"Q\\\" ; B\" # c\n\tEmail = a@b.c ; comment\n"}, `A "Q" ; B <a@b.c>`},
		{"subsections are not [user]", map[string]string{".gitconfig": "[user]\n\tname = Main\n\temail = m@x.y\n[user \"x\"]\n\tname = Sub\n[user.y]\n\tname = Dotted\n"}, "Main <m@x.y>"},
		{"includes relative to the including file", map[string]string{".gitconfig": "[include]\n\tpath = sub/a.inc\n[user]\n\temail = after@x.y\n",
			"sub/a.inc": "[include]\n\tpath = b.inc\n", "sub/b.inc": "[user]\n\tname = Nested\n\temail = n@x.y\n"}, "Nested <after@x.y>"},
		{"includeIf with a bracket expression", map[string]string{".gitconfig": "[user]\n\tname = X\n\temail = t@x.y\n[includeIf \"gitdir:**/[uv]ault/\"]\n\tpath = w.inc\n",
			"w.inc": "[user]\n\tname = Bracket\n"}, "Bracket <t@x.y>"},
		{"includeIf by the real path", map[string]string{".gitconfig": "[user]\n\tname = X\n\temail = t@x.y\n[includeIf \"gitdir:" + dir + "/\"]\n\tpath = w.inc\n",
			"w.inc": "[user]\n\tname = Real Path\n"}, "Real Path <t@x.y>"},
		{"includeIf gitdir/i, another case", map[string]string{".gitconfig": "[user]\n\tname = X\n\temail = t@x.y\n[includeIf \"gitdir/i:**/VAULT/\"]\n\tpath = w.inc\n",
			"w.inc": "[user]\n\tname = Folded\n"}, "Folded <t@x.y>"},
		{"includeIf gitdir of another case", map[string]string{".gitconfig": "[user]\n\tname = X\n\temail = t@x.y\n[includeIf \"gitdir:**/VAULT/\"]\n\tpath = w.inc\n",
			"w.inc": "[user]\n\tname = Folded\n"}, "X <t@x.y>"},
		{"includeIf onbranch", map[string]string{".gitconfig": "[user]\n\tname = X\n\temail = t@x.y\n[includeIf \"onbranch:ma*\"]\n\tpath = w.inc\n",
			"w.inc": "[user]\n\tname = On Main\n"}, "On Main <t@x.y>"},
		{"an include missing", map[string]string{".gitconfig": "[include]\n\tpath = nowhere.inc\n[user]\n\tname = Still\n\temail = t@x.y\n"}, "Still <t@x.y>"},
	}
	for _, c := range cases {
		t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
		write(t, home, c.files)
		if g := gitVar(); g != c.want {
			t.Fatalf("%s: git var says %q, the test expected %q", c.name, g, c.want)
		}
		id, err := r.Identity()
		if got := id.Author.Name + " <" + id.Author.Email + ">"; err != nil || got != c.want {
			t.Errorf("%s: Identity = %q, %v; git says %q", c.name, got, err, c.want)
		}
	}
}

// TestConfigParserAsGit reads configuration files of every form git's syntax allows,
// and some it refuses, and compares each with `git config --file F --list`: the same
// variables in the same order, and a refusal where git refuses.
func TestConfigParserAsGit(t *testing.T) {
	files := []string{
		"[core]\n\tbare = false\n[user]\n\tname = A\n",
		"\ufeff[a]\nb = c\n",
		"[a] b = c\n[d \"e f\"] g = h\n",
		"[Sec \"Sub\\\\x\\\"y\\z\"]\n\tKey-1 = v\n",
		"[sec.SUB]\nkey = v\n",
		"[a]\n\tb = \" lead\" and \"trail \"  \n",
		"[a]\n\tb = x\\ty\\nz\\\\w\\\"q\n",
		"[a]\n\tb = one\\\n  two\n\tc = three\n",
		"[a]\n\tb = x ; comment\n\tc = y # comment\n\td = \"e;f#g\"\n",
		"[a]\n\tflag\n\tother = 1\n",
		"[a]\r\n\tb = c\r\n\td = \"e\r\n",
		"[a]\n\tb\t=\t  spaced   out  \n",
		"; top comment\n# another\n[a]\n\n\tb = c\n",
		"[a]\nb = c", // no final line break
		"[a]\n\tb = unknown \\q escape\n",
		"[a]\n\tb = \"unclosed\n",
		"[a\n\tb = c\n",
		"[a \"sub]\n",
		"[a]\n\t1b = c\n",
		"[a]\n\tb c = d\n",
		"[a]\n\tb = c\n[]\n",
		"[a \"s\" ]\n",
		"[a]\n\tb = x\\\n",
	}
	for _, text := range files {
		f := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "--file", f, "--list", "-z")
		cmd.Env = os.Environ()
		out, gitErr := cmd.Output()
		ours, err := gitrepo.ConfigList([]byte(text))
		if (gitErr != nil) != (err != nil) {
			t.Errorf("%q: git's error %v, ours %v", text, gitErr, err)
			continue
		}
		if gitErr != nil {
			continue
		}
		var want []string // -z: "key\nvalue", or "key" alone, each ended by NUL
		for _, e := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if e != "" {
				want = append(want, strings.Replace(e, "\n", "=", 1))
			}
		}
		if d := cmp.Diff(want, ours); d != "" {
			t.Errorf("%q (-git +ours):\n%s", text, d)
		}
	}
}
