package uiapi_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
	"github.com/memotree/memotree/backend/uiapi"
)

func TestGitPushPullFromThePanel(t *testing.T) {
	remote, other, mine := twoClones(t, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n.md": "one\ntwo\nthree\n", "m.md": "m\n"})
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
	// The panel lists the conflict; a commit waits for its resolution.
	st, err = api.GitStatus("v")
	if err != nil || len(st.Conflicts) != 1 || st.Conflicts[0].Path != "n.md" || st.Conflicts[0].Hunks != 1 {
		t.Fatalf("GitStatus = %+v, %v", st.Conflicts, err)
	}
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "too early"}); !errors.Is(err, gitrepo.ErrUnresolved) {
		t.Errorf("GitCommit while conflicted = %v", err)
	}
	// Resolve by hand, commit from the panel, push: the other machine gets it.
	d, err := api.GitConflict("v", "n.md")
	if err != nil || len(d.Hunks) != 1 {
		t.Fatalf("GitConflict = %+v, %v", d, err)
	}
	byHand := "one\nTWO, edited on both\nthree\n"
	if res, err := api.GitResolve("v", uiapi.GitResolveRequest{Path: "n.md", Content: &byHand, IfHash: d.WorkingHash}); err != nil || !res.Resolved {
		t.Fatalf("GitResolve = %+v, %v", res, err)
	}
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
// behind a password, on this machine) with the token saved in the settings for that
// remote's host, which the window never sees again. The token is sent to no other
// host: a vault whose origin is changed to another server sends that server nothing.
// The environment's token, for the host it names, wins over the saved one.
func TestGitTokenFromTheSettings(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("HOME", cfg) // no credential helper of the machine's user
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(cfg, "none"))
	t.Setenv(uiapi.TokenEnv, "")
	t.Setenv(uiapi.TokenHostEnv, "")
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
	if v, err := api.GitSettings(); err != nil || len(v.Credentials) != 0 || len(v.Remotes) != 1 || v.Remotes[0].SignIn != gitrepo.SignInNone {
		t.Fatalf("GitSettings before saving = %+v, %v", v, err)
	}
	if _, err := api.GitPush("v"); !errors.Is(err, gitrepo.ErrSignIn) || !strings.Contains(err.Error(), "plain HTTP") {
		t.Fatalf("push without a token = %v, want ErrSignIn naming plain HTTP", err)
	}
	for _, bad := range []uiapi.GitSettingsInput{
		{URL: srv.URL("remote"), Token: "two words", AllowHTTP: true},
		{URL: "", Token: token},                                          // for no host
		{URL: srv.URL("remote"), Token: token},                           // plain HTTP, not allowed
		{URL: "http://git.example/r.git", Token: token, AllowHTTP: true}, // plain HTTP off this machine
	} {
		if _, err := api.SaveGitSettings(bad); err == nil {
			t.Errorf("SaveGitSettings(%+v) saved", bad)
		}
	}
	v, err := api.SaveGitSettings(uiapi.GitSettingsInput{URL: srv.URL("remote"), Token: " " + token + "\n", AllowHTTP: true})
	host := strings.TrimPrefix(srv.Server.URL, "http://")
	if err != nil || len(v.Credentials) != 1 || v.Credentials[0].TokenHint != "…7c1d" || v.Credentials[0].URL != "http://"+host || !v.Credentials[0].AllowHTTP {
		t.Fatalf("SaveGitSettings = %+v, %v", v, err)
	}
	if len(v.Remotes) != 1 || v.Remotes[0].SignIn != gitrepo.SignInToken || v.Remotes[0].Credential != "http://"+host {
		t.Errorf("the remote after saving = %+v, want it signed in with the token for http://%s", v.Remotes, host)
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

	// The origin now points at another server: it is sent no token.
	var mu sync.Mutex
	var seen []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
	}))
	defer evil.Close()
	git(t, mine, "remote", "set-url", "origin", evil.URL+"/attacker/repo.git")
	if _, err := api.GitPull("v"); !errors.Is(err, gitrepo.ErrSignIn) {
		t.Errorf("pull from the other server = %v, want ErrSignIn", err)
	}
	mu.Lock()
	if len(seen) == 0 || strings.Join(seen, "") != "" {
		t.Errorf("the other server got Authorization %q (%d requests)", seen, len(seen))
	}
	mu.Unlock()
	git(t, mine, "remote", "set-url", "origin", srv.URL("remote"))

	// The environment's token, for this host, wins over the saved one (here, a wrong
	// one); without its host it is sent nowhere.
	t.Setenv(uiapi.TokenEnv, "wrong-token-from-env")
	commit("three\n")
	if v, err := api.GitSettings(); err != nil || !v.EnvUnbound || len(v.Credentials) != 1 {
		t.Errorf("GitSettings with %s alone = %+v, %v", uiapi.TokenEnv, v, err)
	}
	if _, err := api.GitPush("v"); err != nil {
		t.Errorf("push with an unbound environment token = %v; the saved token should sign in", err)
	}
	t.Setenv(uiapi.TokenHostEnv, "http://"+host)
	commit("four\n")
	if v, err := api.GitSettings(); err != nil || v.EnvUnbound || len(v.Credentials) != 2 || !v.Credentials[0].FromEnv || v.Credentials[0].TokenHint != "…-env" {
		t.Errorf("GitSettings with %s and %s set = %+v, %v", uiapi.TokenEnv, uiapi.TokenHostEnv, v, err)
	}
	if _, err := api.GitPush("v"); !errors.Is(err, gitrepo.ErrSignIn) {
		t.Errorf("push with the environment's wrong token = %v, want ErrSignIn", err)
	}
	t.Setenv(uiapi.TokenEnv, "")
	if v, err := api.SaveGitSettings(uiapi.GitSettingsInput{Remove: "http://" + host}); err != nil || len(v.Credentials) != 0 {
		t.Errorf("after removing, GitSettings = %+v, %v", v, err)
	}
	if b, _ := os.ReadFile(v.Path); strings.Contains(string(b), token) {
		t.Errorf("the removed token is still in %s", v.Path)
	}
}

// A token an earlier version saved for no host is sent nowhere, shown as such, and
// dropped by the next save.
func TestGitLegacyTokenIsSentNowhere(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv(uiapi.TokenEnv, "")
	writeFiles(t, filepath.Join(cfg, "memotree"), map[string]string{"git.toml": "token = \"ghp-old-unbound-0000\"\n"})
	if err := os.Chmod(filepath.Join(cfg, "memotree", "git.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	api, _ := openAPI(t, t.TempDir())
	v, err := api.GitSettings()
	if err != nil || !v.LegacyToken || len(v.Credentials) != 0 {
		t.Fatalf("GitSettings with an old token = %+v, %v", v, err)
	}
	if v, err = api.SaveGitSettings(uiapi.GitSettingsInput{URL: "github.com", Token: "ghp-new-bound-1111"}); err != nil || v.LegacyToken || len(v.Credentials) != 1 || v.Credentials[0].URL != "https://github.com" {
		t.Fatalf("SaveGitSettings = %+v, %v", v, err)
	}
	if b, _ := os.ReadFile(v.Path); strings.Contains(string(b), "ghp-old-unbound") {
		t.Errorf("the old token is still in %s", v.Path)
	}
}
