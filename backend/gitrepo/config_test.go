package gitrepo_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// gitOwnEnv runs git in dir with the test's environment as it is (its global
// configuration file and GIT_CONFIG_* variables included), returning its output and
// whether it ran.
func gitOwnEnv(dir string, args ...string) (string, bool) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err == nil
}

// TestBadConfigNamesFileAndLine: a configuration git cannot read (in the repository's
// file, the global one, an included one; an include loop) makes git refuse to run,
// and MemoTree's status, identity and commit refuse too, with an error naming the file
// and the line git names, and saying what to do; nothing is committed.
func TestBadConfigNamesFileAndLine(t *testing.T) {
	home := noIdentity(t)
	dir, r := newRepo(t)
	repoConfig := filepath.Join(dir, ".git", "config")
	good, err := os.ReadFile(repoConfig)
	if err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(home, ".gitconfig")
	inc := filepath.Join(home, "inc", "more.inc")
	cases := []struct {
		name  string
		files map[string]string // path: content, over the good repository config
		names string            // the file the error must name
	}{
		{"repository", map[string]string{repoConfig: string(good) + "[user]\n\tname = A\n\tbad key = x\n"}, repoConfig},
		{"global", map[string]string{global: "[user]\n\temail = a@b.c\n[broken\n"}, global},
		{"included", map[string]string{global: "[user]\n\tname = A\n[include]\n\tpath = inc/more.inc\n",
			inc: "[user]\n\temail = \"unclosed\n"}, inc},
		{"included by includeIf", map[string]string{global: "[includeIf \"gitdir:" + filepath.Join(dir, ".git") + "\"]\n\tpath = inc/more.inc\n",
			inc: "\n\n[core]\n\tx = \\q\n"}, inc},
		{"an include loop", map[string]string{global: "[include]\n\tpath = inc/more.inc\n", inc: "[include]\n\tpath = more.inc\n"}, inc},
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	write(t, dir, map[string]string{"a.md": "changed\n"})
	head := run(t, dir, "rev-parse", "HEAD")
	for _, c := range cases {
		for f, text := range c.files {
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, ok := gitOwnEnv(dir, "status", "--porcelain")
		if ok {
			t.Fatalf("%s: git status ran: %s", c.name, out)
		}
		wantLine := ""
		if m := regexp.MustCompile(`line (\d+) in file`).FindStringSubmatch(out); m != nil {
			wantLine = "line " + m[1] + ":"
		} else if c.name != "an include loop" {
			t.Fatalf("%s: git names no line: %s", c.name, out)
		}
		_, statusErr := r.Status(t.Context())
		_, idErr := r.Identity()
		_, commitErr := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{"a.md"}})
		errs := map[string]error{"Status": statusErr, "Identity": idErr, "Commit": commitErr}
		if c.name == "repository" { // go-git reads this file too, when it opens the repository
			_, errs["Open"] = gitrepo.Open(dir, nil)
		}
		for what, err := range errs {
			switch {
			case !errors.Is(err, gitrepo.ErrBadConfig):
				t.Errorf("%s: %s = %v, want ErrBadConfig (git says %q)", c.name, what, err, out)
			case !strings.Contains(err.Error(), c.names+",") && !strings.Contains(err.Error(), c.names+" "):
				t.Errorf("%s: %s's error does not name %s: %v", c.name, what, c.names, err)
			case !strings.Contains(err.Error(), wantLine):
				t.Errorf("%s: %s's error does not name the line git names (%q): %v", c.name, what, out, err)
			}
		}
		for _, f := range []string{global, inc} {
			os.Remove(f)
		}
		if err := os.WriteFile(repoConfig, good, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := run(t, dir, "rev-parse", "HEAD"); got != head {
			t.Fatalf("%s: HEAD moved", c.name)
		}
	}
}

// TestConfigFromEnvironmentAsGit: GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n override the files as `git config --get` and `git var` read them
// (the identity, core.fileMode), and a count or a pair git refuses is refused with an
// error naming the variable.
func TestConfigFromEnvironmentAsGit(t *testing.T) {
	noIdentity(t)
	dir, r := newRepo(t)
	run(t, dir, "config", "user.name", "From File")
	run(t, dir, "config", "user.email", "file@x.y")
	env := map[string]string{
		"GIT_CONFIG_COUNT": "3",
		"GIT_CONFIG_KEY_0": "User.Name", "GIT_CONFIG_VALUE_0": "From Env",
		"GIT_CONFIG_KEY_1": "core.fileMode", "GIT_CONFIG_VALUE_1": "false",
		"GIT_CONFIG_KEY_2": "user.x.name", "GIT_CONFIG_VALUE_2": "A Subsection",
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	for _, key := range []string{"user.name", "user.email", "core.filemode"} {
		got, _ := gitOwnEnv(dir, "config", "--get", key)
		want := map[string]string{"user.name": "From Env", "user.email": "file@x.y", "core.filemode": "false"}[key]
		if got != want {
			t.Fatalf("git config --get %s = %q, the test expected %q", key, got, want)
		}
	}
	id, err := r.Identity()
	if err != nil {
		t.Fatal(err)
	}
	ident, _ := gitOwnEnv(dir, "var", "GIT_AUTHOR_IDENT")
	if want := id.Author.Name + " <" + id.Author.Email + ">"; !strings.HasPrefix(ident, want+" ") {
		t.Errorf("Identity = %q; git var says %q", want, ident)
	}
	// core.fileMode false from the environment: an executable bit changed is no change.
	if err := os.Chmod(filepath.Join(dir, "a.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := gitOwnEnv(dir, "status", "--porcelain"); len(st) != 0 || out != "" {
		t.Errorf("with core.fileMode false from the environment, Status = %v, git status = %q; want both clean", st, out)
	}

	for _, bad := range []struct {
		name, key, value, names string
	}{
		{"a count that is no number", "GIT_CONFIG_COUNT", "three", "GIT_CONFIG_COUNT"},
		{"a key missing", "GIT_CONFIG_KEY_1", "", "GIT_CONFIG_KEY_1"},
		{"a value missing", "GIT_CONFIG_VALUE_2", "<unset>", "GIT_CONFIG_VALUE_2"},
		{"a key of no form", "GIT_CONFIG_KEY_2", "nodot", "GIT_CONFIG_KEY_2"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			if bad.value == "<unset>" {
				unset(t, bad.key)
			} else {
				t.Setenv(bad.key, bad.value)
			}
			if out, ok := gitOwnEnv(dir, "config", "--get", "user.name"); ok {
				t.Fatalf("git accepts it: %s", out)
			}
			_, err := r.Status(t.Context())
			if !errors.Is(err, gitrepo.ErrBadConfig) || !strings.Contains(err.Error(), bad.names) {
				t.Errorf("Status = %v, want ErrBadConfig naming %s", err, bad.names)
			}
		})
	}
}
