package mcpserver

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/internal/wait"
)

// TestPlainGETSendsOnlyNew: a session's GET stream opened again without Last-Event-ID
// (as clients do after a dropped connection) does not replay the notifications the
// session heard on its earlier stream: it carries new ones only. A notification sent
// before the session's first stream, which it never heard, comes on that stream. A
// real HTTP client against the handler.
func TestPlainGETSendsOnlyNew(t *testing.T) {
	hs, _, srv := servedWith(t)
	welcome := URI("demo", "Welcome.md")
	c := openSession(t, hs.URL, "plain-get")
	c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":%q}}`, welcome))
	updated := func() {
		if err := srv.mcp.ResourceUpdated(t.Context(), &mcp.ResourceUpdatedNotificationParams{URI: welcome}); err != nil {
			t.Fatal(err)
		}
	}
	// ids reads a stream's event ids, one per notification, until it ends.
	ids := func(stream *http.Response) chan string {
		ch := make(chan string, 100)
		go func() {
			defer close(ch)
			r, id := bufio.NewReader(stream.Body), ""
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if v, ok := strings.CutPrefix(line, "id: "); ok {
					id = strings.TrimSpace(v)
				}
				if strings.HasPrefix(line, "data: ") && strings.Contains(line, "notifications/resources/updated") {
					ch <- id
				}
			}
		}()
		return ch
	}
	// open opens the session's stream without Last-Event-ID, again until the server
	// has seen the previous one go.
	open := func() *http.Response {
		var stream *http.Response
		wait.Until(t, "GET of the standalone stream to be served", func() error {
			stream = c.stream("")
			if stream.StatusCode == http.StatusOK {
				return nil
			}
			stream.Body.Close()
			return errors.New(stream.Status)
		})
		return stream
	}
	updated() // before any stream: stored, never heard
	first := open()
	heard := ids(first)
	var seen []string
	// The server may take a stream in a moment after answering the GET: notify until
	// a live one arrives (each is written on this stream, replayed or live).
	for deadline := time.Now().Add(20 * time.Second); len(seen) < 2; {
		select {
		case id := <-heard:
			seen = append(seen, id)
		case <-time.After(100 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatalf("the first stream gave %q in 20 s", seen)
			}
			updated()
		}
	}
	if seen[0] != standaloneEventID(0) {
		t.Errorf("the first stream began with %s, want %s: the notification sent before it", seen[0], standaloneEventID(0))
	}
	// Read what else was sent to it, until it is quiet.
	for quiet := false; !quiet; {
		select {
		case id := <-heard:
			seen = append(seen, id)
		case <-time.After(300 * time.Millisecond):
			quiet = true
		}
	}
	first.Body.Close()
	second := open()
	defer second.Body.Close()
	heard = ids(second)
	var got string
	for deadline := time.Now().Add(20 * time.Second); got == ""; {
		updated()
		select {
		case id, ok := <-heard:
			if !ok {
				t.Fatal("the second stream ended")
			}
			got = id
		case <-time.After(200 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("no notification came on the second stream in 20 s")
			}
		}
	}
	if last := eventIndex(t, seen[len(seen)-1]); eventIndex(t, got) <= last {
		t.Errorf("the second stream began with %s, which the first stream carried (it carried %q): a replay", got, seen)
	}
}

// eventIndex is the index of a standalone stream's event id.
func eventIndex(t *testing.T, id string) int {
	t.Helper()
	var i int
	if _, err := fmt.Sscanf(id, "_%d", &i); err != nil {
		t.Fatalf("event id %q: %v", id, err)
	}
	return i
}
