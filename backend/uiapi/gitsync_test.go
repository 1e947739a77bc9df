package uiapi_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
	"github.com/memotree/memotree/backend/uiapi"
)

func TestGitPushPullFromThePanel(t *testing.T) {
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	writeFiles(t, seed, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n.md": "one\ntwo\nthree\n", "m.md": "m\n"})
	git(t, seed, "init", "-q", "-b", "main")
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-q", "-m", "seed")
	remote := filepath.Join(root, "remote.git")
	git(t, root, "clone", "-q", "--bare", seed, remote)
	other, mine := filepath.Join(root, "other"), filepath.Join(root, "mine")
	git(t, root, "clone", "-q", "file://"+remote, other)
	git(t, root, "clone", "-q", "file://"+remote, mine)
	api, _ := openAPI(t, mine)

	st, err := api.GitStatus("v")
	if err != nil || len(st.Remotes) != 1 || st.Remotes[0].Name != "origin" || st.Merging {
		t.Fatalf("GitStatus = %+v, %v", st, err)
	}
	// Another machine pushes; here the same line is edited, uncommitted.
	writeFiles(t, other, map[string]string{"n.md": "one\nTWO from the other machine\nthree\n", "m.md": "m changed\n"})
	git(t, other, "commit", "-q", "-am", "other")
	git(t, other, "push", "-q", "origin", "main")
	writeFiles(t, mine, map[string]string{"n.md": "one\ntwo edited here\nthree\n"})

	res, err := api.GitPull("v")
	if err != nil || res.Outcome != gitrepo.PullFastForward || len(res.Conflicts) != 1 || res.Conflicts[0] != "n.md" {
		t.Fatalf("GitPull = %+v, %v", res, err)
	}
	b, _ := os.ReadFile(filepath.Join(mine, "n.md"))
	if !strings.Contains(string(b), "two edited here") || !strings.Contains(string(b), "TWO from the other machine") {
		t.Errorf("n.md lost a side:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "m.md")); string(b) != "m changed\n" {
		t.Errorf("m.md = %q", b)
	}
	// Resolve, commit from the panel, push: the other machine gets it.
	writeFiles(t, mine, map[string]string{"n.md": "one\nTWO, edited on both\nthree\n"})
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "Resolve n"}); err != nil {
		t.Fatal(err)
	}
	if res, err := api.GitPush("v"); err != nil || res.UpToDate {
		t.Fatalf("GitPush = %+v, %v", res, err)
	}
	git(t, other, "pull", "-q", "origin", "main")
	if b, _ := os.ReadFile(filepath.Join(other, "n.md")); string(b) != "one\nTWO, edited on both\nthree\n" {
		t.Errorf("the other machine's n.md = %q", b)
	}
	git(t, remote, "fsck", "--strict", "--no-progress")
}

// TestGitTokenFromTheSettings signs in to an HTTP remote (git's own HTTP backend
// behind a password) with the token saved in the settings, which the window never
// sees again; the environment's token wins over it.
func TestGitTokenFromTheSettings(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", cfg) // no credential helper of the machine's user
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(cfg, "none"))
	t.Setenv(uiapi.TokenEnv, "")
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	writeFiles(t, seed, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n.md": "one\n"})
	git(t, seed, "init", "-q", "-b", "main")
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-q", "-m", "seed")
	remote := filepath.Join(root, "remote.git")
	git(t, root, "clone", "-q", "--bare", seed, remote)
	mine := filepath.Join(root, "mine")
	git(t, root, "clone", "-q", "file://"+remote, mine)
	const token = "ghp-memotree-test-7c1d"
	srv := githttptest.Start(t, root, token)
	git(t, mine, "remote", "set-url", "origin", srv.URL("remote"))
	api, _ := openAPI(t, mine)

	commit := func(text string) {
		t.Helper()
		writeFiles(t, mine, map[string]string{"n.md": text})
		if res, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: text}); err != nil || res.Hash == "" {
			t.Fatalf("GitCommit = %+v, %v", res, err)
		}
	}
	// No identity in this home: the commit is refused, and the panel sets one.
	writeFiles(t, mine, map[string]string{"n.md": "two\n"})
	res, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "two\n"})
	if err != nil || !res.NeedsIdentity || res.Hash != "" || !strings.Contains(res.Refused, "user.email") {
		t.Fatalf("GitCommit without an identity = %+v, %v; want NeedsIdentity saying how to set it", res, err)
	}
	if id, err := api.GitSetIdentity("v", "Test Person", "test@example.com"); err != nil || id.Name != "Test Person" || id.Missing {
		t.Fatalf("GitSetIdentity = %+v, %v", id, err)
	}
	commit("two\n")
	if got := git(t, mine, "config", "--local", "user.email"); got != "test@example.com\n" {
		t.Errorf("user.email of the repository = %q", got)
	}
	if v, err := api.GitSettings(); err != nil || v.TokenSet || v.FromEnv {
		t.Fatalf("GitSettings before saving = %+v, %v", v, err)
	}
	if _, err := api.GitPush("v"); !errors.Is(err, gitrepo.ErrSignIn) {
		t.Fatalf("push without a token = %v, want ErrSignIn", err)
	}
	if _, err := api.SaveGitSettings(uiapi.GitSettingsInput{Token: "two words"}); err == nil {
		t.Errorf("a token with a space was saved")
	}
	v, err := api.SaveGitSettings(uiapi.GitSettingsInput{Token: " " + token + "\n"})
	if err != nil || !v.TokenSet || v.TokenHint != "…7c1d" {
		t.Fatalf("SaveGitSettings = %+v, %v", v, err)
	}
	if b, _ := json.Marshal(v); strings.Contains(string(b), token) {
		t.Errorf("the window is shown the token: %s", b)
	}
	fi, err := os.Stat(v.Path)
	if err != nil || fi.Mode().Perm() != 0o600 || !strings.HasPrefix(v.Path, cfg) {
		t.Fatalf("git settings file %s: %v, %v; want mode 0600 under %s", v.Path, fi, err, cfg)
	}
	if res, err := api.GitPush("v"); err != nil || res.UpToDate {
		t.Fatalf("push with the saved token = %+v, %v", res, err)
	}
	if got := git(t, remote, "show", "main:n.md"); got != "two\n" {
		t.Errorf("the remote's n.md = %q", got)
	}

	// The environment's token wins over the saved one (here, a wrong one).
	t.Setenv(uiapi.TokenEnv, "wrong-token-from-env")
	commit("three\n")
	if v, err := api.GitSettings(); err != nil || !v.FromEnv || v.TokenHint != "…-env" {
		t.Errorf("GitSettings with %s set = %+v, %v", uiapi.TokenEnv, v, err)
	}
	if _, err := api.GitPush("v"); !errors.Is(err, gitrepo.ErrSignIn) {
		t.Errorf("push with the environment's wrong token = %v, want ErrSignIn", err)
	}
	t.Setenv(uiapi.TokenEnv, "")
	if v, err := api.SaveGitSettings(uiapi.GitSettingsInput{ClearToken: true}); err != nil || v.TokenSet {
		t.Errorf("after clearing, GitSettings = %+v, %v", v, err)
	}
	if b, _ := os.ReadFile(v.Path); strings.Contains(string(b), token) {
		t.Errorf("the cleared token is still in %s", v.Path)
	}
}
