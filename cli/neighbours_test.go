package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/mcpserver"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// Only loopback addresses are served, whatever the flag says.
func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0", "127.0.0.1", "10.0.0.1:7777"} {
		if ln, err := listenLoopback(addr); err == nil {
			ln.Close()
			t.Errorf("listenLoopback(%q) listened on %s", addr, ln.Addr())
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := listenLoopback(addr)
		if err != nil {
			t.Errorf("listenLoopback(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
}

// The MCP server over HTTP answers 401 without its token and 403 to a rebound Host or
// a foreign Origin, before any tool runs; with all three right it answers.
func TestMCPHTTPGuard(t *testing.T) {
	ws, err := workspace.Open(context.Background(), []workspace.Spec{{Name: "demo", Path: demoCopy(t), Permission: tool.PermWrite}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	const tok = "mcp-test-token"
	srv, err := mcpserver.New(t.Context(), mcpserver.Deps{Registry: reg, Libraries: ws, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(mcpHTTPHandler(srv, tok))
	defer hs.Close()
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_entities","arguments":{"entity_names":["Welcome"]}}}`
	tests := []struct {
		name string
		mod  func(*http.Request)
		want int
	}{
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, 401},
		{"token in the query only", func(r *http.Request) { r.Header.Del("Authorization"); r.URL.RawQuery = "token=" + tok }, 401},
		{"rebound host", func(r *http.Request) { r.Host = "attacker.example:80" }, 403},
		{"rebound host without port", func(r *http.Request) { r.Host = "attacker.example" }, 403},
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, 403},
		{"null origin", func(r *http.Request) { r.Header.Set("Origin", "null") }, 403},
		{"localhost origin on another port", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") }, 403},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+tok)
		tt.mod(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
	l, _ := ws.Library("")
	if _, _, err := l.Vault().Read("Welcome.md"); err != nil {
		t.Errorf("a refused request ran its tool: %v", err)
	}
	// All three right: the server answers the protocol.
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "read_entities") {
		t.Errorf("a good request: %d %.300s", resp.StatusCode, b)
	}
}
