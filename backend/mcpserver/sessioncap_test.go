package mcpserver

import (
	"net/http"
	"strings"
	"testing"
)

// TestSessionsAreCapped opens one session more than maxSessions, the first of them
// used again just before: the session least recently used (the second) is closed,
// its next request is answered 404 saying why and what to do, the others still work,
// the server holds maxSessions sessions, and a new initialize is served.
func TestSessionsAreCapped(t *testing.T) {
	hs, _, srv := servedWith(t)
	url := hs.URL
	var open []*rawSession
	for i := range maxSessions {
		open = append(open, openSession(t, url, "client"+string(rune('a'+i%26))))
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if got := open[0].call(list); !strings.Contains(got, `"tools"`) {
		t.Fatalf("the first session's tools/list: %s", got)
	}
	latest := openSession(t, url, "one too many")

	res := open[1].post(list)
	body := answer(t, res)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "at most 64 MCP sessions") || !strings.Contains(body, "initialize a new session") {
		t.Fatalf("the least recently used session's next request: %s %s; want 404 saying it was closed and what to do", res.Status, body)
	}
	for i, c := range []*rawSession{open[0], open[2], open[maxSessions-1], latest} {
		if got := c.call(list); !strings.Contains(got, `"tools"`) {
			t.Fatalf("session %d after the eviction: %s", i, got)
		}
	}
	n := 0
	for range srv.mcp.Sessions() {
		n++
	}
	if n != maxSessions {
		t.Fatalf("the server holds %d sessions, want %d", n, maxSessions)
	}
	again := openSession(t, url, "back again")
	if got := again.call(list); !strings.Contains(got, `"tools"`) {
		t.Fatalf("a new session after the eviction: %s", got)
	}
}
