package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/uiapi"
)

// saver stands for the window's API at the size limit: it takes SaveNote's arguments
// and reports how much text arrived, refusing more than uiapi.MaxSaveBytes as
// SaveNote does.
type saver struct{}

func (saver) SaveNote(lib, path, content, base string) (int, error) {
	if len(content) > uiapi.MaxSaveBytes {
		return 0, &tooMuch{}
	}
	return len(content), nil
}

type tooMuch struct{}

func (*tooMuch) Error() string { return "more than the window saves" }

// TestSaveLimitIsTheTransportsLimit: the window's save and `memotree serve`'s body
// limit are one. The transport reads a body of exactly uiapi.MaxRequestBytes and
// refuses one byte more (413); the largest save, uiapi.MaxSaveBytes of quotes and
// backslashes that JSON escaping doubles, fits in it; and such a save passes the
// transport whole, while one byte more reaches the save, which refuses it with its own
// message (the real SaveNote refuses the same sizes: TestSaveNoteSizeLimit). The round
// requests of 64 MB take a minute under the race detector, where only the sizes are
// compared.
func TestSaveLimitIsTheTransportsLimit(t *testing.T) {
	srv := httptest.NewServer(Handler(Deps{API: saver{}, Bus: event.NewBus(), Token: token}))
	defer srv.Close()
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/call/SaveNote", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		return do(t, req)
	}
	envelope, _ := json.Marshal([]string{"library", strings.Repeat("n", 1000) + ".md", "", strings.Repeat("h", 64)})
	if worst := 2*uiapi.MaxSaveBytes + len(envelope); worst > uiapi.MaxRequestBytes {
		t.Errorf("the largest save, escaped, is %d bytes: more than the transport reads (%d)", worst, uiapi.MaxRequestBytes)
	}
	if raceDetector {
		t.Log("the requests of 64 MB are left out under the race detector (a minute there)")
		return
	}
	// Not JSON from the first byte: the transport reads it all, then refuses it at once.
	if status, body := post("x" + strings.Repeat(" ", uiapi.MaxRequestBytes-1)); status != 400 {
		t.Errorf("a body of MaxRequestBytes: %d %.200s; want it read (400: not JSON)", status, body)
	}
	if status, body := post("x" + strings.Repeat(" ", uiapi.MaxRequestBytes)); status != 413 {
		t.Errorf("a body one byte over MaxRequestBytes: %d %.200s; want 413", status, body)
	}
	save := func(content string) (int, string) {
		body, _ := json.Marshal([]string{"v", "n.md", content, ""})
		return post(string(body))
	}
	if status, body := save(strings.Repeat(`"\`, uiapi.MaxSaveBytes/2)); status != 200 || body != strconv.Itoa(uiapi.MaxSaveBytes) {
		t.Fatalf("a save of the limit, escaped: %d %.300s", status, body)
	}
	if status, body := save(strings.Repeat("x", uiapi.MaxSaveBytes+1)); status != 500 || !strings.Contains(body, "more than the window saves") {
		t.Errorf("one byte over the limit: %d %.300s; want the save's refusal", status, body)
	}
}
