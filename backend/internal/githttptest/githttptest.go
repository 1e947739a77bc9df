// Package githttptest serves bare git repositories over git's smart HTTP protocol for
// tests: the real git-http-backend behind a local server that asks for a password
// (an access token, as hosting services take them) by HTTP basic authentication.
package githttptest

import (
	"crypto/subtle"
	"encoding/pem"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Server is a git HTTP server over the bare repositories of one folder.
type Server struct {
	*httptest.Server
	// Refused counts the requests refused for a missing or wrong password.
	Refused atomic.Int64
}

// Start serves the bare repositories under root (URL path /NAME.git is root/NAME.git)
// over plain HTTP and accepts any user name with the password token; every repository
// takes pushes. It fails the test when git's http backend is not installed.
func Start(t testing.TB, root, token string) *Server { return start(t, root, token, false) }

// StartTLS is Start over HTTPS, with a certificate of its own (see CA).
func StartTLS(t testing.TB, root, token string) *Server { return start(t, root, token, true) }

// CA returns the server's certificate in PEM, for a client to trust.
func (s *Server) CA() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
}

func start(t testing.TB, root, token string, tls bool) *Server {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatalf("git --exec-path: %v (the git HTTP tests need git installed)", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Fatalf("git-http-backend: %v (Debian's git package installs it)", err)
	}
	s := &Server{}
	cgiHandler := &cgi.Handler{
		Path: backend,
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1",
			"HOME=" + root, "GIT_CONFIG_GLOBAL=" + filepath.Join(root, "no-gitconfig")},
	}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pass, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(pass), []byte(token)) != 1 {
			s.Refused.Add(1)
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		// git-http-backend takes pushes from an authenticated user.
		r.Header.Del("Authorization")
		env := cgiHandler.Env
		h := *cgiHandler
		h.Env = append(append([]string{}, env...), "REMOTE_USER=tester")
		h.ServeHTTP(w, r)
	}))
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// URL returns the HTTP(S) URL of the repository NAME.git under the server's root.
func (s *Server) URL(name string) string { return s.Server.URL + "/" + name + ".git" }
