//go:build unix

package gitrepo_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestStatusNeverReadsANamedPipe: a named pipe in place of a tracked note, and one
// named .gitignore, do not block git status (which hashes the working tree and reads
// the ignore files) or a commit: status answers (the note shows as deleted, as git
// shows it), and a commit of the note refuses it with an error.
func TestStatusNeverReadsANamedPipe(t *testing.T) {
	dir, r := newRepo(t)
	for _, name := range []string{"a.md", ".gitignore"} {
		os.Remove(filepath.Join(dir, name))
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		changes, err := r.Status(t.Context())
		if err != nil {
			t.Errorf("status: %v", err)
		}
		found := false
		for _, c := range changes {
			if c.Path == "a.md" {
				found = true
			}
		}
		if !found {
			t.Errorf("status %+v does not list a.md", changes)
		}
		if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m"}); err == nil {
			t.Error("a commit staged a named pipe")
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("git status or commit still blocked after 10 s on a named pipe")
	}
}
