package vault

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// TestTornJournalRecordEndsTheChangeSet: an append to the undo journal fails part way
// (the disk took half a record, then was full) and cutting the half off fails too, so
// the journal ends in a torn record. The change set writes no more: a record appended
// after the torn one would be glued to it, and a recovery after a crash would find a
// damaged record in the middle of the journal. The journal still reads (the torn end
// is ignored), and the rollback puts back what the valid records name.
func TestTornJournalRecordEndsTheChangeSet(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("torn")
	ctx := WithUndo(t.Context(), u)
	if _, err := v.Write(ctx, "a.md", []byte("ALPHA\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	name := internalDir + "/" + undoPrefix + "torn" + undoSuffix
	path := filepath.Join(dir, filepath.FromSlash(name))
	restore := fsfault.Inject(func(op, file string) error {
		if file != name {
			return nil
		}
		switch op {
		case "write": // the disk takes half a record, then is full
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			if _, err := f.WriteString(`{"path":"b.md","existed":true,"da`); err != nil {
				return err
			}
			return syscall.ENOSPC
		case "truncate":
			return syscall.EIO
		}
		return nil
	})
	_, err := v.Write(ctx, "b.md", []byte("BETA\n"), WriteOptions{})
	restore()
	if err == nil {
		t.Fatal("a write whose journal record failed succeeded")
	}
	if _, err := v.Write(ctx, "d/c.md", []byte("GAMMA\n"), WriteOptions{}); err == nil {
		t.Error("the change set wrote on after its journal was left with a torn record")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readJournal(bytes.NewReader(b)); err != nil {
		t.Errorf("the journal no longer reads as a crash would find it: %v\n%s", err, b)
	}
	if _, err := u.Rollback(t.Context(), ""); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("after the rollback (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
}
