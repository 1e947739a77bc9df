//go:build unix

package vaults

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/internal/regular"
)

// An obsidian.json that is not a file Obsidian would write — a named pipe, which
// blocks a plain open until a writer comes, a folder, a file far too large — lists no
// vault, at once, and the problem names the file and what is there. The good file
// beside it is still read.
func TestObsidianListThatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	work := mkdir(t, dir, "Work")
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`{"vaults":{"a":{"path":"`+work+`","ts":1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe", "obsidian.json")
	mkdir(t, filepath.Dir(pipe))
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := mkdir(t, dir, "folder", "obsidian.json")
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, make([]byte, MaxObsidianList+1), 0o644); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		found    []Found
		problems []error
	}
	done := make(chan answer, 1)
	go func() {
		f, p := Obsidian([]string{pipe, folder, huge, good})
		done <- answer{f, p}
	}()
	var got answer
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		// Let the blocked open go (a writer comes), so the test ends.
		if w, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("Obsidian still blocked on a named pipe after 10 s")
	}
	if len(got.found) != 1 || got.found[0].Path != work {
		t.Errorf("found %+v, want %s alone", got.found, work)
	}
	if len(got.problems) != 3 {
		t.Fatalf("problems = %v, want one for each of the pipe, the folder and the huge file", got.problems)
	}
	for i, want := range []struct{ path, says string }{{pipe, "named pipe"}, {folder, "folder"}, {huge, "larger than"}} {
		err := got.problems[i]
		if msg := err.Error(); !strings.Contains(msg, want.path) || !strings.Contains(msg, want.says) {
			t.Errorf("problem %d = %q, want it to name %s and say %q", i, msg, want.path, want.says)
		}
	}
	if !errors.Is(got.problems[0], regular.ErrNotRegular) {
		t.Errorf("the named pipe's problem %v is not ErrNotRegular", got.problems[0])
	}
}
