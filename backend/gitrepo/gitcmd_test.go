//go:build unix

package gitrepo_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
)

// helperScript writes a credential helper that adds its name to the file marks and,
// when password is not empty, answers git's "get" with it.
func helperScript(t *testing.T, dir, name, marks, password string) string {
	t.Helper()
	text := "#!/bin/sh\necho " + name + " >> '" + marks + "'\n"
	if password != "" {
		text += "[ \"$1\" = get ] && printf 'username=tester\\npassword=" + password + "\\n'\nexit 0\n"
	}
	p := filepath.Join(dir, name+".sh")
	if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// marked returns the names the helpers wrote to marks, in order.
func marked(t *testing.T, marks string) []string {
	t.Helper()
	b, err := os.ReadFile(marks)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// TestCredentialHelpersAreThePersons pulls from an HTTPS server that wants a password
// with no token saved, so that git's credential helper is asked, from a MemoTree
// started where another repository's configuration could reach git: in a folder of
// that repository, with GIT_DIR and GIT_WORK_TREE naming it (as in its hooks), with
// configuration in the environment (`git -c`, GIT_CONFIG_COUNT). None of its helpers
// ever runs; the person's global helper (HOME's .gitconfig) is asked, and when it
// knows the password, signs in. Of the vault's
// own .git/config, a helper that runs a command (a shell command, a path, an alias
// of its own, shell syntax, one in a file it includes) never runs either, nor does
// core.askPass; a helper git installs (store) is asked.
func TestCredentialHelpersAreThePersons(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	unset(t, "GIT_CONFIG_GLOBAL")
	unset(t, "XDG_CONFIG_HOME")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	marks := filepath.Join(root, "marks")
	const token = "tok-7c1e-memotree-test"
	bin := filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// The person's helper: one that is asked but knows no password (git then asks the
	// helpers after it), and one that answers.
	asked := helperScript(t, bin, "person", marks, "")
	answers := helperScript(t, bin, "answers", marks, token)
	evil := helperScript(t, bin, "evil", marks, "")
	identity := "[user]\n\tname = Test\n\temail = test@example.com\n"
	personAsked := identity + "[credential]\n\thelper = !" + asked + "\n"
	personAnswers := identity + "[credential]\n\thelper = !" + answers + "\n"

	remote, a, _ := clones(t)
	srv := githttptest.StartTLS(t, filepath.Dir(remote), token)
	run(t, a, "remote", "set-url", "origin", srv.URL("remote"))
	r := open(t, a)
	vaultConfig := filepath.Join(a, ".git", "config")
	good := read(t, a, ".git/config")

	other := filepath.Join(root, "other")
	write(t, other, map[string]string{"sub/x.md": "x\n"})
	run(t, other, "init", "-q")
	run(t, other, "config", "credential.helper", "!"+evil)
	outside := filepath.Join(root, "outside.inc")
	write(t, root, map[string]string{"outside.inc": "[credential]\n\thelper = !" + evil + "\n"})
	store := filepath.Join(root, "git-credentials")
	write(t, root, map[string]string{"git-credentials": strings.Replace(srv.URL(""), "https://", "https://tester:"+token+"@", 1) + "\n"})

	cases := []struct {
		name   string
		env    map[string]string
		chdir  string
		vault  string // added to the vault's .git/config
		global string // the person's global configuration
		want   []string
	}{
		{name: "started in another repository", chdir: filepath.Join(other, "sub"), global: personAsked, want: []string{"person"}},
		{name: "GIT_DIR of another repository", env: map[string]string{"GIT_DIR": filepath.Join(other, ".git"), "GIT_WORK_TREE": other},
			global: personAsked, want: []string{"person"}},
		{name: "git -c in the environment", env: map[string]string{"GIT_CONFIG_PARAMETERS": "'credential.helper'='!" + evil + "'"},
			global: personAsked, want: []string{"person"}},
		{name: "GIT_CONFIG_COUNT", env: map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "credential.helper", "GIT_CONFIG_VALUE_0": "!" + evil},
			global: personAsked, want: []string{"person"}},
		{name: "the vault's shell command", vault: "[credential]\n\thelper = !" + evil + "\n", global: personAsked, want: []string{"person"}},
		{name: "the vault's program path", vault: "[credential]\n\thelper = " + evil + "\n", global: personAsked, want: []string{"person"}},
		{name: "the vault's alias", vault: "[alias]\n\tcredential-evil = !" + evil + "\n[credential]\n\thelper = evil\n",
			global: personAsked, want: []string{"person"}},
		{name: "the vault's shell syntax", vault: "[credential]\n\thelper = \"store --file=" + store + "; " + evil + "\"\n",
			global: personAsked, want: []string{"person"}},
		{name: "a file the vault includes", vault: "[include]\n\tpath = " + outside + "\n", global: personAsked, want: []string{"person"}},
		{name: "the vault's askPass", vault: "[core]\n\taskPass = " + evil + "\n", global: identity},
		{name: "the vault's fsmonitor and hooks", vault: "[core]\n\tfsmonitor = " + evil + "\n\thooksPath = " + bin + "\n",
			global: personAsked, want: []string{"person"}},
		{name: "the person's helper answers", chdir: filepath.Join(other, "sub"), global: personAnswers, want: []string{"answers"}},
		{name: "the vault's installed helper", vault: "[credential]\n\thelper = store --file=" + store + "\n", global: identity},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(marks)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if c.chdir != "" {
				t.Chdir(c.chdir)
			}
			if err := os.WriteFile(vaultConfig, []byte(good+c.vault), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.WriteFile(vaultConfig, []byte(good), 0o644) })
			write(t, home, map[string]string{".gitconfig": c.global})

			_, err := r.Pull(t.Context(), gitrepo.SyncOptions{CABundle: srv.CA()})
			signedIn := c.global == personAnswers || strings.Contains(c.vault, "helper = store")
			switch {
			case signedIn && err != nil:
				t.Errorf("Pull = %v, want it signed in by the person's helper", err)
			case !signedIn && !errors.Is(err, gitrepo.ErrSignIn):
				t.Errorf("Pull = %v, want ErrSignIn (no helper of the person's)", err)
			}
			if d := cmp.Diff(c.want, marked(t, marks)); d != "" {
				t.Errorf("helpers run (-want +got):\n%s", d)
			}
		})
	}
}
