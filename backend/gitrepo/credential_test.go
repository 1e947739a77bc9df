package gitrepo_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
)

// recorder is a git remote that wants a password and records every Authorization
// header it is sent: the place a token must never reach.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	auths []string
	hits  int
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits++
		if a := req.Header.Get("Authorization"); a != "" {
			r.auths = append(r.auths, a)
		}
		r.mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "authentication required", http.StatusUnauthorized)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) seen() (hits int, auths []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits, append([]string(nil), r.auths...)
}

// TestTokenGoesOnlyToItsHost: a token is saved for one protocol and host, as git's
// credential store keeps one, and sent to that host alone: a vault whose origin
// points elsewhere (another port, another name for the same machine, plain HTTP for
// a token saved for HTTPS) sends no Authorization at all, and plain HTTP carries a
// token only to a loopback host the person allowed it for. git's credential helper is
// not asked for a plain HTTP remote either.
func TestTokenGoesOnlyToItsHost(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	write(t, home, map[string]string{".gitconfig": "[user]\n\tname = Test\n\temail = test@example.com\n"})
	remote, a, _ := clones(t)
	const token = "tok-host-bound-5e2c"
	good := githttptest.Start(t, filepath.Dir(remote), token)
	goodHost := strings.TrimPrefix(good.Server.URL, "http://")
	evil := newRecorder(t)
	evilURL, _ := url.Parse(evil.URL)
	evilHost := evilURL.Host
	_, port, _ := strings.Cut(evilHost, ":")

	allowed := gitrepo.Credential{Protocol: "http", Host: goodHost, Token: token, AllowHTTP: true}
	cases := []struct {
		name   string
		origin string
		creds  []gitrepo.Credential
	}{
		{"the origin is another server", evil.URL + "/attacker/repo.git", []gitrepo.Credential{allowed}},
		{"a token saved for HTTPS, the origin plain HTTP", evil.URL + "/r.git", []gitrepo.Credential{{Protocol: "https", Host: evilHost, Token: token}}},
		{"plain HTTP not allowed for the host", evil.URL + "/r.git", []gitrepo.Credential{{Protocol: "http", Host: evilHost, Token: token}}},
		{"another name for the same host", "http://localhost:" + port + "/r.git", []gitrepo.Credential{{Protocol: "http", Host: evilHost, Token: token, AllowHTTP: true}}},
		{"the host without its port", evil.URL + "/r.git", []gitrepo.Credential{{Protocol: "http", Host: "127.0.0.1", Token: token, AllowHTTP: true}}},
	}
	ra := open(t, a)
	for _, c := range cases {
		run(t, a, "remote", "set-url", "origin", c.origin)
		before, _ := evil.seen()
		_, err := ra.Pull(t.Context(), gitrepo.SyncOptions{Credentials: c.creds})
		if !errors.Is(err, gitrepo.ErrSignIn) {
			t.Errorf("%s: pull = %v, want ErrSignIn", c.name, err)
		}
		if strings.Contains(errString(err), token) {
			t.Errorf("%s: the error shows the token: %v", c.name, err)
		}
		hits, auths := evil.seen()
		if hits == before {
			t.Errorf("%s: the pull never reached the listener", c.name)
		}
		if len(auths) > 0 {
			t.Fatalf("%s: the listener was sent %q", c.name, auths)
		}
	}

	// git's credential helper has a password for the listener: over plain HTTP it is
	// not asked.
	store := filepath.Join(home, "credentials")
	write(t, home, map[string]string{"credentials": "http://tester:" + token + "@" + evilHost + "\n"})
	run(t, home, "config", "--file", filepath.Join(home, ".gitconfig"), "credential.helper", "store --file="+store)
	run(t, a, "remote", "set-url", "origin", evil.URL+"/r.git")
	if _, err := ra.Pull(t.Context(), gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrSignIn) {
		t.Errorf("pull from the listener with a helper = %v, want ErrSignIn", err)
	}
	if _, auths := evil.seen(); len(auths) > 0 {
		t.Fatalf("the helper's password went over plain HTTP: %q", auths)
	}

	// The token's own host, plain HTTP allowed for it: the push signs in.
	run(t, a, "remote", "set-url", "origin", good.URL("remote"))
	edit(t, a, "n1.md", "one", "ONE, host-bound")
	commitAll(t, ra, "host-bound")
	if res, err := ra.Push(t.Context(), gitrepo.SyncOptions{Credentials: []gitrepo.Credential{{Protocol: "https", Host: evilHost, Token: "other"}, allowed}}); err != nil || res.UpToDate {
		t.Fatalf("push to the token's host = %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(run(t, remote, "rev-parse", "main")), head(t, a); got != want {
		t.Errorf("the remote's main = %s, want %s", got, want)
	}

	// A push URL of another server (a pushurl, or a second url, which go-git pushes
	// to): the token saved for the first URL's host never goes there.
	edit(t, a, "n2.md", "two", "TWO, host-bound")
	commitAll(t, ra, "pushed elsewhere")
	for _, key := range []string{"remote.origin.pushurl", "remote.origin.url"} {
		run(t, a, "config", "--add", key, evil.URL+"/r.git")
		_, err := ra.Push(t.Context(), gitrepo.SyncOptions{Credentials: []gitrepo.Credential{allowed}})
		if !errors.Is(err, gitrepo.ErrSignIn) {
			t.Errorf("push with a second %s = %v, want ErrSignIn", key, err)
		}
		if _, auths := evil.seen(); len(auths) > 0 {
			t.Fatalf("a second %s was sent %q", key, auths)
		}
		tryGit(a, "config", "--unset-all", "remote.origin.pushurl")
		tryGit(a, "config", "--unset", "remote.origin.url", "/r[.]git$")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ParseCredentialHost keeps a token's protocol and host as git's credential store
// does, and refuses plain HTTP except for a loopback host the person allowed.
func TestParseCredentialHost(t *testing.T) {
	for _, c := range []struct {
		in        string
		allowHTTP bool
		proto     string
		host      string
		err       string
	}{
		{"https://github.com/me/notes.git", false, "https", "github.com", ""},
		{"GitHub.com", false, "https", "github.com", ""},
		{"https://git.example:443", false, "https", "git.example", ""},
		{"https://git.example:8443/x", false, "https", "git.example:8443", ""},
		{"http://127.0.0.1:8080/r.git", true, "http", "127.0.0.1:8080", ""},
		{"http://localhost:3000", true, "http", "localhost:3000", ""},
		{"http://[::1]:3000", true, "http", "[::1]:3000", ""},
		{"http://127.0.0.1:8080", false, "", "", "allow plain HTTP"},
		{"http://git.example", true, "", "", "plain HTTP"},
		{"ssh://git@github.com/x", false, "", "", "SSH"},
		{"", false, "", "", "remote's address"},
		{"https://", false, "", "", "not a remote"},
		{"https://h:99999", false, "", "", "port"},
	} {
		proto, host, err := gitrepo.ParseCredentialHost(c.in, c.allowHTTP)
		if proto != c.proto || host != c.host || (c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseCredentialHost(%q, %v) = %q, %q, %v; want %q, %q, error %q", c.in, c.allowHTTP, proto, host, err, c.proto, c.host, c.err)
		}
	}
}
