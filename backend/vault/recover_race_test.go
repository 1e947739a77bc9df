package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestProbeNeverLetsAWriteLandOnACrashedHalf: a watching process that checks whether
// a change set's owner died holds the journal's lock for a moment. If it did so
// without the vault lock, a write of another process at that moment would find the
// journal locked, take the crashed change set for a live one, and write on top of its
// half; the rollback that follows then keeps that file (it changed), and the crashed
// change set stays half-applied inside the person's write. The probe happens only
// under the vault lock, so the write waits, and lands on the vault as it was.
func TestProbeNeverLetsAWriteLandOnACrashedHalf(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	watcher, err := Open(dir) // a process whose watcher saw the journal
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	server, err := Open(dir) // another process, about to write
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	crashMidChangeSet(t, v, "s6")

	waiting := make(chan struct{})
	var waitOnce sync.Once
	server.onLockWait = func() { waitOnce.Do(func() { close(waiting) }) }
	written := make(chan error, 1)
	var probeOnce sync.Once
	watcher.onJournalProbe = func(string) {
		probeOnce.Do(func() {
			go func() {
				_, err := server.UpdateFile(t.Context(), "a.md", func(cur []byte, _ bool) ([]byte, error) {
					return append(cur, "appended by the person\n"...), nil
				}, WriteOptions{Actor: "mcp:test"})
				written <- err
			}()
			// The write either ends while the probe holds the journal (it did not
			// wait for the rollback) or waits for the vault lock.
			select {
			case err := <-written:
				written <- err
			case <-waiting:
			}
		})
	}
	if _, err := watcher.RecoverStale(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.md": "alpha\nappended by the person\n", "b.md": "beta\n", "d/c.md": "gamma\n"}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("the write landed on the crashed change set's half (-want +got):\n%s", d)
	}
	if c, _ := server.RecoveryConflicts(); len(c) != 0 {
		t.Errorf("recovery conflicts %+v; want none", c)
	}
	assertNoUndoLog(t, dir)
}

// TestReadJournalFailsOnAReadError: only the end of the file makes a last line torn
// (a record never synced, whose write never happened). A read that fails in the
// middle (an input/output error) must fail the recovery, which keeps the journal for
// the next try, rather than roll back the part read and remove the journal with the
// rest of the change set's pre-images.
func TestReadJournalFailsOnAReadError(t *testing.T) {
	line, _ := json.Marshal(undoRecord{Path: "a.md", Existed: true, Data: []byte("alpha\n"), Post: HashOf([]byte("ALPHA\n"))})
	r := io.MultiReader(bytes.NewReader(append(line, '\n')), iotest.ErrReader(syscall.EIO))
	if j, err := readJournal(r); !errors.Is(err, syscall.EIO) {
		t.Errorf("readJournal with a read error after its first record = %d pre-images, %v; want EIO", len(j.pre), err)
	}
	j, err := readJournal(bytes.NewReader(append(append(line, '\n'), `{"path":"b.md","exi`...)))
	if err != nil || len(j.pre) != 1 {
		t.Errorf("readJournal with a torn last line = %d pre-images, %v; want the first record", len(j.pre), err)
	}
}
