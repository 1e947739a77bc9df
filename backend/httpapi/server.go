// Package httpapi serves the window's API to a browser: every method of the bound API
// struct becomes POST /api/call/{Method} (derived by reflection, never a second
// hand-written copy), events stream as server-sent events from /api/events, and the
// built frontend is served from /. Every request must carry the session token (query
// parameter once, then a cookie), come for a loopback Host, and, when it has an Origin,
// come from the same origin.
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
	"time"

	"github.com/memotree/memotree/backend/event"
)

// CookieName is the cookie that carries the token after the first request.
const CookieName = "memotree_token"

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
	mux := http.NewServeMux()
	mux.Handle("/api/call/{method}", serveCall(methods(d.API)))
	mux.Handle("/api/events", serveEvents(d.Bus))
	if d.Assets != nil {
		mux.Handle("/", serveAssets(d.Assets))
	}
	return guard(d.Token, mux)
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

// guard enforces the token, the loopback Host and the same Origin.
func guard(token string, next http.Handler) http.Handler {
	return LoopbackOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.URL.Query().Get("token")
		fromQuery := got != ""
		if !fromQuery {
			got = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		if c, err := r.Cookie(CookieName); got == "" && err == nil {
			got = c.Value
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "missing or wrong token: open the URL that `memotree serve` printed", http.StatusUnauthorized)
			return
		}
		if fromQuery {
			http.SetCookie(w, &http.Cookie{Name: CookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	}))
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
