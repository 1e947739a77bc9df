package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// startInProcess runs a serving command (serve, mcp --http) in this process with args
// and returns the URL it printed; the command stops when the test ends.
func startInProcess(t *testing.T, run func(context.Context, Env, []string) int, args ...string) *url.URL {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() { done <- run(ctx, Env{Stdout: pw, Stderr: io.Discard}, args) }()
	t.Cleanup(func() {
		cancel()
		pw.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the server did not stop")
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		if sc.Scan() {
			lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case line := <-lines:
		u, err := url.Parse(strings.TrimSpace(line))
		if err != nil {
			t.Fatalf("the server printed %q: %v", line, err)
		}
		return u
	case code := <-done:
		t.Fatalf("the server exited with %d before printing its URL", code)
	case <-time.After(60 * time.Second):
		t.Fatal("the server printed no URL")
	}
	return nil
}

// TestServersCloseIdleConnections: `serve` and `mcp --http` close connections that
// say nothing (no request at all, or nothing after a first request was answered), so
// that idle clients cannot hold descriptors and goroutines for ever. The timeouts are
// made short here; the test waits for each connection to be closed by the server.
func TestServersCloseIdleConnections(t *testing.T) {
	old := httpLimits
	httpLimits.ReadHeader, httpLimits.Idle = 300*time.Millisecond, 500*time.Millisecond
	t.Cleanup(func() { httpLimits = old })
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	servers := map[string]*url.URL{
		"serve":      startInProcess(t, runServe, "--library", "demo="+demoCopy(t)),
		"mcp --http": startInProcess(t, runMCP, "--library", "demo="+demoCopy(t), "--http", "127.0.0.1:0"),
	}
	for name, u := range servers {
		t.Run(name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make(chan error, 50)
			for i := range 50 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := holdSilent(u, i%2 == 1); err != nil {
						errs <- fmt.Errorf("connection %d: %w", i, err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// holdSilent opens a connection to u's host, optionally sends one request and reads
// its answer, then says nothing and waits for the server to close the connection
// (an end of file, or a reset), within a generous guard.
func holdSilent(u *url.URL, oneRequest bool) error {
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	r := bufio.NewReader(c)
	if oneRequest {
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.Path, u.Host)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			return fmt.Errorf("first request: %w", err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.Close {
			return nil // closed at once: nothing held
		}
	}
	_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
	_, err = r.ReadByte()
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("still open after 60 s of silence (after a request: %v)", oneRequest)
	}
	if err == nil {
		return errors.New("the server sent bytes nobody asked for")
	}
	return nil
}
