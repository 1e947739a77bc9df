//go:build unix

package uiapi_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/uiapi"
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

// TestVaultsWithObsidianListThatIsANamedPipe: the welcome's list of vaults answers
// at once when Obsidian's obsidian.json is a named pipe, with a notice naming it,
// instead of waiting for a writer that never comes.
func TestVaultsWithObsidianListThatIsANamedPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "obsidian.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	api, _, _ := switcher(t, filepath.Join(dir, "state", "vaults.toml"), pipe)
	done := make(chan uiapi.VaultsView, 1)
	go func() {
		v, err := api.Vaults()
		if err != nil {
			t.Errorf("Vaults: %v", err)
		}
		done <- v
	}()
	select {
	case v := <-done:
		if len(v.Obsidian) != 0 || !slices.ContainsFunc(v.Notices, func(n string) bool { return strings.Contains(n, pipe) && strings.Contains(n, "named pipe") }) {
			t.Errorf("Vaults = %+v, want no Obsidian vault and a notice naming %s as a named pipe", v, pipe)
		}
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			w.Close() // let the blocked read end, so the test does
		}
		t.Fatal("Vaults still blocked on a named pipe after 10 s")
	}
}
