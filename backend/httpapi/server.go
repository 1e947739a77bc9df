// Package httpapi serves the window's API to a browser: every method of the bound API
// struct becomes POST /api/call/{Method} (derived by reflection, never a second
// hand-written copy), events stream as server-sent events from /api/events, and the
// built frontend is served from /. Every request must come for a loopback Host and,
// when it has an Origin, from the same origin. Every /api request must carry a
// credential in an Authorization header of the Bearer scheme: the token `memotree
// serve` printed, or a session the page got for it at POST /api/session. No cookie
// is set and no token is taken from a query: a cookie would go to every server on
// 127.0.0.1 (cookies are not separated by port), and a query leaves the token in the
// address bar. The frontend's own files load without a credential (they hold no vault
// data), so that a reload, whose address no longer carries the token, still works.
package httpapi

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/event"
)

// NewToken returns a random 256-bit token in hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Deps are what the handler serves.
type Deps struct {
	API    any        // the bound API struct (pointer)
	Bus    *event.Bus // events for /api/events
	Assets fs.FS      // the built frontend (index.html at its root); may be nil
	Token  string
}

// Handler returns the HTTP handler.
func Handler(d Deps) http.Handler {
	sess := &sessions{token: d.Token, live: map[string]time.Time{}}
	api := http.NewServeMux()
	api.Handle("/api/call/{method}", serveCall(methods(d.API)))
	api.Handle("/api/events", serveEvents(d.Bus))
	mux := http.NewServeMux()
	mux.Handle("POST /api/session", headers(http.HandlerFunc(sess.exchange)))
	mux.Handle("/api/session", headers(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Allow", "POST")
		http.Error(w, "POST the printed token (Authorization: Bearer TOKEN) for a session", http.StatusMethodNotAllowed)
	})))
	mux.Handle("/api/", headers(sess.require(api)))
	if d.Assets != nil {
		mux.Handle("/", headers(serveAssets(d.Assets)))
	}
	return LoopbackOnly(mux)
}

// headers sets the headers of every answer: no sniffing, no referrer.
func headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// maxSessions bounds the sessions kept; the oldest goes first.
const maxSessions = 256

// sessions are the credentials pages got for the printed token.
type sessions struct {
	token string
	mu    sync.Mutex
	live  map[string]time.Time // session → when it was made
}

// exchange answers POST /api/session with a new session for the printed token (as a
// Bearer credential; a session is not exchanged for another).
func (s *sessions) exchange(w http.ResponseWriter, r *http.Request) {
	if !s.isToken(bearer(r)) {
		unauthorized(w)
		return
	}
	id, err := NewToken()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	if len(s.live) >= maxSessions {
		oldest, at := "", time.Time{}
		for k, t := range s.live {
			if oldest == "" || t.Before(at) {
				oldest, at = k, t
			}
		}
		delete(s.live, oldest)
	}
	s.live[id] = time.Now()
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"session": id})
}

// require answers 401 to a request without the printed token or a session.
func (s *sessions) require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := bearer(r)
		if !s.isToken(got) && !s.isSession(got) {
			unauthorized(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *sessions) isToken(got string) bool {
	return got != "" && s.token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

func (s *sessions) isSession(got string) bool {
	if got == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	found := false
	for k := range s.live { // compared in constant time, each
		if subtle.ConstantTimeCompare([]byte(got), []byte(k)) == 1 {
			found = true
		}
	}
	return found
}

// bearer returns the credential of an Authorization header of the Bearer scheme
// (the scheme in any case, as HTTP has it), or "".
func bearer(r *http.Request) string {
	scheme, cred, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(cred)
}

func unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="memotree"`)
	http.Error(w, "missing or wrong token: open the address `memotree serve` printed (it carries ?token=)", http.StatusUnauthorized)
}

// LoopbackOnly answers 403 to a request whose Host is not a loopback address (a page
// of another site that rebound its name to 127.0.0.1) or whose Origin, when it has
// one, is not the same origin (a page of another site calling in). Every local
// server of MemoTree — the window's API and the MCP server over HTTP — sits behind it.
func LoopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "forbidden host: MemoTree answers only requests addressed to 127.0.0.1, ::1 or localhost", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || u.Host != r.Host {
				http.Error(w, "forbidden origin: MemoTree answers no other site's pages", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names a loopback address, which defeats
// DNS rebinding: a page on evil.example resolved to 127.0.0.1 still sends its own Host.
func loopbackHost(hostport string) bool {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// serveEvents streams bus events as server-sent events until the client leaves.
func serveEvents(bus *event.Bus) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		fl, ok := w.(http.Flusher)
		if !ok || bus == nil {
			http.Error(w, "events unavailable", http.StatusInternalServerError)
			return
		}
		ch, cancel := bus.Subscribe(64)
		defer cancel()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, ": connected\n\n")
		fl.Flush()
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				fmt.Fprint(w, ": keep-alive\n\n")
			case e, ok := <-ch:
				if !ok {
					return
				}
				data, err := json.Marshal(e.Data)
				if err != nil {
					continue
				}
				fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Topic, data)
			}
			fl.Flush()
		}
	}
}

// serveAssets serves the built frontend, falling back to index.html for unknown paths.
func serveAssets(assets fs.FS) http.Handler {
	files := http.FileServer(http.FS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name != "" {
			if _, err := fs.Stat(assets, name); err == nil {
				files.ServeHTTP(w, r)
				return
			}
		}
		b, err := fs.ReadFile(assets, "index.html")
		if err != nil {
			http.Error(w, "the frontend is not built: run `make build`", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
	})
}

func readLimited(r *http.Request, n int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, n+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > n {
		return nil, fmt.Errorf("request body larger than %d bytes", n)
	}
	return b, nil
}
