//go:build unix

package doctor_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/vault"
)

// TestRepairSparesALiveWriteInMemotree: the app writes its own files in .memotree
// without the vault lock; while such a write is in progress in another process, its
// writer holds its temporary file's lock. doctor --repair leaves that file alone
// however old it looks (a clock may have jumped), and removes a dead writer's.
func TestRepairSparesALiveWriteInMemotree(t *testing.T) {
	dir := t.TempDir()
	live := ".memotree/" + vault.TempName()
	dead := ".memotree/" + vault.TempName()
	write(t, dir, map[string]string{"a.md": "# A\n", live: "the index, half written", dead: "a crashed write"})
	hourAgo := time.Now().Add(-time.Hour)
	for _, p := range []string{live, dead} {
		if err := os.Chtimes(filepath.Join(dir, p), hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, live), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{Repair: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, live)); err != nil {
		t.Errorf("doctor --repair removed the temporary file of a live write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, dead)); !os.IsNotExist(err) {
		t.Errorf("doctor --repair left the dead writer's temporary file: %v", err)
	}
	if r.TempFiles.Count != 1 || r.TempFiles.Examples[0].Path != dead || !r.TempFiles.Examples[0].Removed {
		t.Errorf("temp files = %+v; want only %s, removed", r.TempFiles, dead)
	}
}
