package vault

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// recordSteps injects a hook that records every step of the writes (op and name) and
// fails those fail names (op+" "+name) with EIO; restore removes it (so does the end
// of the test, should it fail before).
func recordSteps(t *testing.T, fail ...string) (steps func() []string, restore func()) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	restore = fsfault.Inject(func(op, name string) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, op+" "+name)
		if slices.Contains(fail, op+" "+name) {
			return syscall.EIO
		}
		return nil
	})
	t.Cleanup(restore)
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}, restore
}

// TestCommitMakesTheJournalsEndDurable: when Commit returns, the change set's journal
// is gone for good: its folder is synced after the removal. Otherwise a power cut
// soon after could bring the journal back, and the next open would roll back a
// change set its caller was told was kept. If that sync fails, the journal (still
// open) is emptied and synced instead: a journal that comes back empty undoes
// nothing.
func TestCommitMakesTheJournalsEndDurable(t *testing.T) {
	for _, syncFails := range []bool{false, true} {
		v, dir := openWith(t, undoSeed)
		u, _ := NewUndo("t9")
		if _, err := v.Write(WithUndo(t.Context(), u), "a.md", []byte("kept\n"), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		name := internalDir + "/" + undoPrefix + "t9" + undoSuffix
		inode, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		var fail []string
		if syncFails {
			fail = []string{"syncdir " + internalDir}
		}
		steps, restore := recordSteps(t, fail...)
		err = u.Commit()
		restore()
		if err != nil {
			t.Fatalf("Commit (the folder's sync failing: %v): %v", syncFails, err)
		}
		got := steps()
		removed := slices.Index(got, "remove "+name)
		if removed < 0 || !slices.Contains(got[removed+1:], "syncdir "+internalDir) {
			t.Errorf("steps of Commit %q: want the removal of %s, then a sync of %s", got, name, internalDir)
		}
		if st, err := inode.Stat(); err != nil || syncFails && st.Size() != 0 {
			t.Errorf("the folder's sync failed, and the journal's content stays (%v, %v bytes): a power cut could bring it back", err, st.Size())
		}
		inode.Close()
		assertNoUndoLog(t, dir)
	}
}
