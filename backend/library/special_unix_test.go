//go:build unix

package library

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/internal/wait"
)

// TestWatcherSkipsANamedPipe: a named pipe named like a note that appears in a watched
// vault is not read (which would block the watcher for ever) and not indexed; the
// library keeps following edits and closes at once.
func TestWatcherSkipsANamedPipe(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "a"})
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"b.md": "b [[a]]"})
	wait.For(t, "b.md, written after the pipe, to be indexed", func() bool { return inGraph(t, l, "b.md") })
	if inGraph(t, l, "pipe.md") {
		t.Error("the named pipe is in the graph")
	}
	closed := make(chan error, 1)
	go func() { closed <- l.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close still blocked after 10 s")
	}
}
