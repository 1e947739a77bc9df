package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// TestSaveLimitIsTheTransportsLimit: the window's save and `memotree serve`'s body
// limit are one: a note of exactly uiapi.MaxSaveBytes — of quotes and newlines, which
// JSON escaping doubles — is saved through the HTTP transport, and one byte more is
// refused by SaveNote with its own message, not by the transport.
func TestSaveLimitIsTheTransportsLimit(t *testing.T) {
	dir := t.TempDir()
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	srv := httptest.NewServer(Handler(Deps{API: uiapi.NewAPI(ws, uiapi.Options{}), Bus: event.NewBus(), Token: token}))
	defer srv.Close()
	save := func(name, content string) (int, string) {
		body, _ := json.Marshal([]string{"v", name, content, ""})
		req, _ := http.NewRequest("POST", srv.URL+"/api/call/SaveNote", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+token)
		return do(t, req)
	}
	full := strings.Repeat("\"\n", uiapi.MaxSaveBytes/2)
	if status, body := save("full.md", full); status != 200 {
		t.Fatalf("a note of the save limit: %d %.300s", status, body)
	}
	if st, err := os.Stat(filepath.Join(dir, "full.md")); err != nil || st.Size() != uiapi.MaxSaveBytes {
		t.Fatalf("full.md: %v %v", st, err)
	}
	status, body := save("over.md", strings.Repeat("x", uiapi.MaxSaveBytes+1))
	if status != 500 || !strings.Contains(body, "more than the window saves") {
		t.Errorf("one byte over the limit: %d %.300s; want SaveNote's refusal", status, body)
	}
	if _, err := os.Stat(filepath.Join(dir, "over.md")); !os.IsNotExist(err) {
		t.Errorf("over.md was written: %v", err)
	}
}
