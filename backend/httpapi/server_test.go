package httpapi

import (
	"bufio"
	"context"
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

// fakeAPI has the shapes of method the real API uses.
type fakeAPI struct{}

type pair struct {
	A string `json:"a"`
	N int    `json:"n"`
}

func (fakeAPI) Echo(a string, n int) (pair, error)                    { return pair{a, n}, nil }
func (fakeAPI) Fail() error                                           { return errors.New("it broke") }
func (fakeAPI) WithCtx(ctx context.Context, s string) (string, error) { return s + "!", ctx.Err() }
func (fakeAPI) NotServed() int                                        { return 1 }

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
	if diff := cmp.Diff([]string{"Echo", "Fail", "WithCtx"}, Names(fakeAPI{})); diff != "" {
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
		{"WithCtx", `["hi"]`, 200, `"hi!"`},
		{"Fail", `[]`, 500, `{"error":"it broke"}`},
		{"Echo", `["x"]`, 400, `{"error":"want 2 arguments, got 1"}`},
		{"Echo", `[1, 2]`, 400, `{"error":"argument 1: json: cannot unmarshal number into Go value of type string"}`},
		{"Echo", `{"a":1}`, 400, ""},
		{"NotServed", `[]`, 404, `{"error":"no method \"NotServed\""}`},
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

func TestGuard(t *testing.T) {
	srv := newServer(t, event.NewBus())
	get := func(path string, mod func(*http.Request)) int {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if mod != nil {
			mod(req)
		}
		s, _ := do(t, req)
		return s
	}
	tests := []struct {
		name string
		path string
		mod  func(*http.Request)
		want int
	}{
		{"no token", "/", nil, 401},
		{"wrong token", "/?token=nope", nil, 401},
		{"token in query", "/?token=" + token, nil, 200},
		{"bearer", "/", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }, 200},
		{"cookie", "/", func(r *http.Request) { r.AddCookie(&http.Cookie{Name: CookieName, Value: token}) }, 200},
		{"rebinding host", "/?token=" + token, func(r *http.Request) { r.Host = "evil.example:80" }, 403},
		{"foreign origin", "/?token=" + token, func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }, 403},
		{"same origin", "/?token=" + token, func(r *http.Request) { r.Header.Set("Origin", srv.URL) }, 200},
		{"no method without token", "/api/call/Echo", nil, 401},
	}
	for _, tt := range tests {
		if got := get(tt.path, tt.mod); got != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestQueryTokenSetsCookie(t *testing.T) {
	srv := newServer(t, event.NewBus())
	resp, err := http.Get(srv.URL + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == CookieName {
			c = k
		}
	}
	if c == nil || c.Value != token || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie = %+v, want an HttpOnly SameSite=Strict token cookie", c)
	}
}

func TestAssetsAndFallback(t *testing.T) {
	srv := newServer(t, event.NewBus())
	for path, want := range map[string]string{"/assets/a.js": "js", "/some/route": "<html>app</html>"} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
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
