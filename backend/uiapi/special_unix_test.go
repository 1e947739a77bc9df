//go:build unix

package uiapi_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoteOfANamedPipe: the window's note view of a named pipe called like a note
// answers at once with an error saying what it is, instead of blocking.
func TestNoteOfANamedPipe(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	api, _ := openAPI(t, dir)
	done := make(chan error, 1)
	go func() {
		_, err := api.Note("v", "pipe.md")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("Note of a named pipe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Note of a named pipe still blocked after 10 s")
	}
}
