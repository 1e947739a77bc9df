//go:build unix

package soak

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/internal/wait"
)

// TestMCPServerWithANamedPipe: a running `memotree mcp --http` whose vault gains a
// named pipe called like a note answers read_entities and resources/read for it at
// once, with an error, keeps following the vault, and stops on SIGTERM (its watcher
// once blocked reading the pipe, and then the process ignored SIGTERM).
func TestMCPServerWithANamedPipe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	url, token, srv := startMCPProcess(t, ctx, dir)
	c, err := mcpClient(ctx, url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call := mcpCall(c)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	quick, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	res, isErr, err := call(quick, "read_entities", map[string]any{"entity_names": []string{"pipe"}})
	if err != nil || !isErr && !strings.Contains(string(res), "not") {
		t.Errorf("read_entities of the pipe: %v %v %s", err, isErr, res)
	}
	if _, err := c.ReadResource(quick, &mcp.ReadResourceParams{URI: "memotree://v/pipe.md"}); err == nil {
		t.Error("resources/read of the pipe succeeded")
	}
	// The server still follows the vault: a note written now is found.
	if err := os.WriteFile(filepath.Join(dir, "b.md"), []byte("# B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wait.Until(t, "the server to find b.md, written after the pipe", func() error {
		res, isErr, err := call(quick, "read_entities", map[string]any{"entity_names": []string{"b"}})
		if err != nil {
			t.Fatalf("read_entities b: %v", err)
		}
		if isErr || !strings.Contains(string(res), "# B") {
			return fmt.Errorf("read_entities b: %s", res)
		}
		return nil
	})
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("memotree mcp --http did not stop within 20 s of SIGTERM")
	}
}
