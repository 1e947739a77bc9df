package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/event"
)

// fakeAPI has the shapes of method the real API uses, and two it must not serve.
type fakeAPI struct{}

type pair struct {
	A string `json:"a"`
	N int    `json:"n"`
}

func (fakeAPI) Echo(a string, n int) (pair, error)                    { return pair{a, n}, nil }
func (fakeAPI) Fail() error                                           { return errors.New("it broke") }
func (fakeAPI) WithCtx(ctx context.Context, s string) (string, error) { return s + "!", ctx.Err() }
func (fakeAPI) NotServed() int                                        { return 1 }
func (fakeAPI) Pre(made bool) (preEncoded, error)                     { return preEncoded{N: 1, made: made}, nil }

// preEncoded carries its own JSON when made (as the graph payload does).
type preEncoded struct {
	N    int `json:"n"`
	made bool
}

func (p preEncoded) EncodedJSON() []byte {
	if !p.made {
		return nil
	}
	return []byte(`{ "n" : 1, "made": "once" }`)
}

const token = "t0k3n"

func newServer(t *testing.T, bus *event.Bus) *httptest.Server {
	t.Helper()
	assets := fstest.MapFS{"index.html": {Data: []byte("<html>app</html>")}, "assets/a.js": {Data: []byte("js")}}
	srv := httptest.NewServer(Handler(Deps{API: fakeAPI{}, Bus: bus, Assets: assets, Token: token}))
	t.Cleanup(srv.Close)
	return srv
}

func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func TestNames(t *testing.T) {
	if diff := cmp.Diff([]string{"Echo", "Fail", "Pre"}, Names(fakeAPI{})); diff != "" {
		t.Errorf("served methods (-want +got):\n%s", diff)
	}
}

func TestCall(t *testing.T) {
	srv := newServer(t, event.NewBus())
	tests := []struct {
		method, body string
		status       int
		want         string
	}{
		{"Echo", `["x", 3]`, 200, `{"a":"x","n":3}`},
		{"Fail", `[]`, 500, `{"error":"it broke"}`},
		{"Echo", `["x"]`, 400, `{"error":"want 2 arguments, got 1"}`},
		{"Echo", `[1, 2]`, 400, `{"error":"argument 1: json: cannot unmarshal number into Go value of type string"}`},
		{"Echo", `{"a":1}`, 400, ""},
		{"NotServed", `[]`, 404, `{"error":"no method \"NotServed\""}`},
		{"WithCtx", `["hi"]`, 404, `{"error":"no method \"WithCtx\""}`},
		// A result with its JSON made goes out as it is, spaces and all; without, encoded.
		{"Pre", `[true]`, 200, `{ "n" : 1, "made": "once" }`},
		{"Pre", `[false]`, 200, `{"n":1}`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", srv.URL+"/api/call/"+tt.method, strings.NewReader(tt.body))
		req.Header.Set("Authorization", "Bearer "+token)
		status, body := do(t, req)
		if status != tt.status || (tt.want != "" && body != tt.want) {
			t.Errorf("%s %s: got %d %s, want %d %s", tt.method, tt.body, status, body, tt.status, tt.want)
		}
	}
}

// TestGuard: the API answers only a request with a credential in an Authorization
// header of the Bearer scheme (the printed token, or a session the page got for it),
// for a loopback Host, from no foreign Origin. A token in the query, in a cookie, or
// without its scheme is refused. The page itself (the built frontend, no vault data)
// loads without one, so that a reload of a tab whose address no longer carries the
// token still works.
func TestGuard(t *testing.T) {
	srv := newServer(t, event.NewBus())
	sess := session(t, srv.URL, token)
	call := func(path string, mod func(*http.Request)) int {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(`["x", 3]`))
		if mod != nil {
			mod(req)
		}
		s, _ := do(t, req)
		return s
	}
	bearer := func(v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set("Authorization", v) } }
	tests := []struct {
		name string
		path string
		mod  func(*http.Request)
		want int
	}{
		{"no token", "/api/call/Echo", nil, 401},
		{"wrong token", "/api/call/Echo", bearer("Bearer nope"), 401},
		{"the token without Bearer", "/api/call/Echo", bearer(token), 401},
		{"the token with another scheme", "/api/call/Echo", bearer("Basic " + token), 401},
		{"the token in the query", "/api/call/Echo?token=" + token, nil, 401},
		{"the token in a cookie", "/api/call/Echo", func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "memotree_token", Value: token}) }, 401},
		{"bearer token", "/api/call/Echo", bearer("Bearer " + token), 200},
		{"bearer, any case", "/api/call/Echo", bearer("bearer " + token), 200},
		{"session", "/api/call/Echo", bearer("Bearer " + sess), 200},
		{"rebinding host", "/api/call/Echo", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token); r.Host = "evil.example:80" }, 403},
		{"foreign origin", "/api/call/Echo", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Origin", "http://evil.example")
		}, 403},
		{"same origin", "/api/call/Echo", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+sess); r.Header.Set("Origin", srv.URL) }, 200},
		{"events without a token", "/api/events", nil, 401},
	}
	for _, tt := range tests {
		if got := call(tt.path, tt.mod); got != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
		}
	}
	// The page loads without a credential, and sets no cookie.
	for _, path := range []string{"/", "/?token=" + token, "/assets/a.js"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || len(resp.Cookies()) != 0 || resp.Header.Get("Set-Cookie") != "" {
			t.Errorf("GET %s = %d, cookies %v", path, resp.StatusCode, resp.Cookies())
		}
	}
	// The page of another site cannot even load it through a rebound name.
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "evil.example"
	if s, _ := do(t, req); s != 403 {
		t.Errorf("the page for a rebound Host: %d", s)
	}
}

// session trades the printed token for a session credential, as the page does.
func session(t *testing.T, base, tok string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/api/session", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	status, body := do(t, req)
	var out struct {
		Session string `json:"session"`
	}
	if status != 200 || json.Unmarshal([]byte(body), &out) != nil || len(out.Session) < 32 || out.Session == tok {
		t.Fatalf("POST /api/session = %d %s", status, body)
	}
	return out.Session
}

// The exchange takes the printed token only (not a session, nothing in the query),
// by POST, and each exchange gives a session of its own.
func TestSessionExchange(t *testing.T) {
	srv := newServer(t, event.NewBus())
	a, b := session(t, srv.URL, token), session(t, srv.URL, token)
	if a == b {
		t.Error("two exchanges gave the same session")
	}
	for name, req := range map[string]*http.Request{
		"a session for a session": func() *http.Request {
			r, _ := http.NewRequest("POST", srv.URL+"/api/session", nil)
			r.Header.Set("Authorization", "Bearer "+a)
			return r
		}(),
		"the token in the query": func() *http.Request {
			r, _ := http.NewRequest("POST", srv.URL+"/api/session?token="+token, nil)
			return r
		}(),
		"a wrong token": func() *http.Request {
			r, _ := http.NewRequest("POST", srv.URL+"/api/session", nil)
			r.Header.Set("Authorization", "Bearer "+strings.Repeat("0", len(token)))
			return r
		}(),
	} {
		if s, body := do(t, req); s != 401 {
			t.Errorf("%s: %d %s", name, s, body)
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/session", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if s, _ := do(t, req); s != 405 {
		t.Errorf("GET /api/session: %d", s)
	}
}

func TestAssetsAndFallback(t *testing.T) {
	srv := newServer(t, event.NewBus())
	for path, want := range map[string]string{"/assets/a.js": "js", "/some/route": "<html>app</html>"} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if s, body := do(t, req); s != 200 || body != want {
			t.Errorf("GET %s = %d %q, want 200 %q", path, s, body, want)
		}
	}
}

func TestEvents(t *testing.T) {
	bus := event.NewBus()
	srv := newServer(t, bus)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if line, _ := r.ReadString('\n'); line != ": connected\n" {
		t.Fatalf("first line %q", line)
	}
	bus.Publish(event.Event{Topic: event.VaultChanged, Data: event.VaultChange{Library: "v", Paths: []string{"a.md"}}})
	var got []string
	for len(got) < 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line = strings.TrimSpace(line); line != "" {
			got = append(got, line)
		}
	}
	want := []string{"event: vault:changed", `data: {"library":"v","paths":["a.md"],"rescan":false}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SSE (-want +got):\n%s", diff)
	}
}
