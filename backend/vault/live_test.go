package vault

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// perProcessLocks makes v's probes behave as flock emulated by per-process locks
// (NFS) does in the process that holds the file: the probe always gets the lock.
func perProcessLocks(v *Vault) { v.probeLock = func(*os.File) (bool, error) { return true, nil } }

// TestRemoveOrphanTempsSparesALiveInternalWrite: the app's own files in .memotree are
// written without the vault lock, so their temporary files are told from orphans by
// whether their writer lives (it holds the file's lock), not by their age: a clock
// that jumped makes a live one look old. Where locks are per process (flock over NFS)
// a probe of a file this process holds succeeds, and closing the probe would drop the
// writer's lock, so a remover never probes its own process's files (see live). A dead
// writer's old temporary file goes.
func TestRemoveOrphanTempsSparesALiveInternalWrite(t *testing.T) {
	v, dir := openWith(t, nil)
	perProcessLocks(v)
	other, err := Open(dir) // another process, in effect
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := v.ensureInternal(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(dir, internalDir, TempName())
	if err := os.WriteFile(dead, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(dead, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	for _, remover := range []*Vault{v, other} {
		removed := -1
		v.beforeRename = func(tmp string) error {
			// The clock jumped forward an hour while the write was in progress.
			if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(tmp)), hourAgo, hourAgo); err != nil {
				return err
			}
			n, err := remover.RemoveOrphanTemps(t.Context())
			removed = n
			return err
		}
		err := v.WriteInternal("index.bin", []byte("the index\n"))
		v.beforeRename = nil
		if err != nil {
			t.Errorf("a write in .memotree lost its temporary file to RemoveOrphanTemps (same process: %v): %v", remover == v, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, internalDir, "index.bin")); string(b) != "the index\n" {
			t.Errorf("index.bin = %q", b)
		}
		if remover == v && removed != 1 {
			t.Errorf("removed %d; want the dead writer's file only", removed)
		}
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead writer's temporary file stayed: %v", err)
	}
}
