package httpapi

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
)

// No request path reaches a file outside the frontend's folder: dot segments, encoded
// ones, backslashes and absolute paths get the app's index page or an error, never the
// secret beside the folder. Requests are written raw, so no client cleans them first.
func TestAssetsStayInTheirFolder(t *testing.T) {
	dir := t.TempDir()
	dist := filepath.Join(dir, "dist")
	if err := os.MkdirAll(filepath.Join(dist, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dist, "index.html"), []byte("<html>app</html>"), 0o644)
	os.WriteFile(filepath.Join(dist, "assets", "a.js"), []byte("js"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("TOP SECRET"), 0o644)
	srv := httptest.NewServer(Handler(Deps{API: fakeAPI{}, Bus: event.NewBus(), Assets: os.DirFS(dist), Token: token}))
	defer srv.Close()
	for _, p := range []string{
		"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/assets/../../secret.txt",
		"/assets/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/..%5csecret.txt", "/assets/..\\..\\secret.txt",
		"//" + filepath.Join(dir, "secret.txt"), "/" + filepath.Join(dir, "secret.txt"), "/%00/../secret.txt",
		"/assets/a.js/../../../secret.txt", "/.%2e/.%2e/secret.txt",
	} {
		status, body := rawGet(t, srv.Listener.Addr().String(), p)
		if strings.Contains(body, "TOP SECRET") {
			t.Errorf("GET %s served the file outside (%d)", p, status)
		}
		if status == 200 && !strings.Contains(body, "<html>app</html>") {
			t.Errorf("GET %s = 200 %q", p, body)
		}
	}
	if status, body := rawGet(t, srv.Listener.Addr().String(), "/assets/a.js"); status != 200 || !strings.HasSuffix(body, "js") {
		t.Errorf("GET /assets/a.js = %d %q", status, body)
	}
}

// rawGet sends GET path as written, with the token, and returns the status and body.
func rawGet(t *testing.T, addr, path string) (int, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n", path, addr, token)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}
