package vault

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/vpath"
)

// crashMidChangeSet makes a change set in v — a.md rewritten, new/n.md created, b.md
// removed — and then "kills" it: its journal's descriptor closes and the process's
// record of live files forgets it, as both happen when the process dies, and nothing
// is rolled back.
func crashMidChangeSet(t *testing.T, v *Vault, id string) {
	t.Helper()
	u, err := NewUndo(id)
	if err != nil {
		t.Fatal(err)
	}
	ctx := WithUndo(t.Context(), u)
	if _, err := v.Write(ctx, "a.md", []byte("ALPHA by the script\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(ctx, "new/n.md", []byte("made by the script\n"), WriteOptions{CreateOnly: true}); err != nil {
		t.Fatal(err)
	}
	if err := v.RemoveWith(ctx, "b.md", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	u.mu.Lock()
	for _, lg := range u.logs {
		lg.close()
	}
	u.mu.Unlock()
}

// outsideWrite replaces a file as an editor that takes no lock does.
func outsideWrite(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.WriteFile(p+".tmp", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
}

// TestRecoverKeepsWritesMadeAfterTheCrash: files changed after the crash (an editor
// that takes no lock wrote a.md and the note the script created) are kept, recorded
// and reported; the rest of the change set is rolled back.
func TestRecoverKeepsWritesMadeAfterTheCrash(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	crashMidChangeSet(t, v, "s1")
	outsideWrite(t, dir, "a.md", "alpha, edited after the crash\n")
	outsideWrite(t, dir, "new/n.md", "made by the script, then edited by the person\n")

	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, notes := notice.With(t.Context())
	if did, err := other.Recover(ctx); err != nil || !did {
		t.Fatalf("Recover = %v, %v", did, err)
	}
	want := map[string]string{
		"a.md":     "alpha, edited after the crash\n",
		"b.md":     "beta\n", // removed by the script: put back
		"d/c.md":   "gamma\n",
		"new/n.md": "made by the script, then edited by the person\n",
	}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("after recovery (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
	msgs := notes.Take()
	if len(msgs) != 1 || !strings.Contains(msgs[0], "kept a.md, new/n.md") || !strings.Contains(msgs[0], "memotree doctor") {
		t.Errorf("notices %q; want one naming the two kept files and doctor", msgs)
	}
	conflicts, err := other.RecoveryConflicts()
	if err != nil {
		t.Fatal(err)
	}
	var got []vpath.Path
	for _, c := range conflicts {
		got = append(got, c.Path)
		if c.ChangeSet != "s1" || c.Time.IsZero() || c.Reason == "" {
			t.Errorf("conflict record %+v", c)
		}
	}
	if d := cmp.Diff([]vpath.Path{"a.md", "new/n.md"}, got); d != "" {
		t.Errorf("recorded conflicts (-want +got):\n%s", d)
	}
	if err := other.ClearRecoveryConflicts(); err != nil {
		t.Fatal(err)
	}
	if c, _ := other.RecoveryConflicts(); len(c) != 0 {
		t.Errorf("conflicts after clearing: %v", c)
	}
}

// TestLockRollsBackACrashedChangeSet: a process that keeps the vault open and writes
// after another process's change set crashed rolls it back before its own write, so
// its write lands on the vault as it was and is never undone; a write based on the
// crashed half (its hash) is refused as a conflict. The caller hears of the rollback.
func TestLockRollsBackACrashedChangeSet(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	server, err := Open(dir) // the live server, open all along
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	crashMidChangeSet(t, v, "s2")
	_, halfHash, err := server.Read("a.md") // the server reads the crashed half
	if err != nil {
		t.Fatal(err)
	}

	ctx, notes := notice.With(t.Context())
	if _, err := server.Write(ctx, "d/c.md", []byte("gamma, acknowledged\n"), WriteOptions{Actor: "mcp:test"}); err != nil {
		t.Fatal(err)
	}
	if msgs := notes.Take(); len(msgs) != 1 || !strings.Contains(msgs[0], "s2") || !strings.Contains(msgs[0], "put back 3 file(s)") {
		t.Errorf("notices %q; want the rollback of s2 told", msgs)
	}
	if _, err := server.Write(t.Context(), "a.md", []byte("built on the half\n"), WriteOptions{IfHash: halfHash}); !errors.Is(err, ErrConflict) {
		t.Errorf("a write based on the crashed half: %v, want ErrConflict", err)
	}
	if _, err := server.Write(t.Context(), "a.md", []byte("alpha, acknowledged\n"), WriteOptions{IfHash: HashOf([]byte("alpha\n"))}); err != nil {
		t.Fatal(err)
	}
	// The next process to open the vault finds nothing to undo: both writes stay.
	third, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if did, err := third.Recover(t.Context()); did || err != nil {
		t.Errorf("Recover after the server's writes = %v, %v; want nothing to do", did, err)
	}
	want := map[string]string{"a.md": "alpha, acknowledged\n", "b.md": "beta\n", "d/c.md": "gamma, acknowledged\n"}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
}

// TestRecoverStale: while a change set lives, RecoverStale leaves it alone and counts
// it; once its owner is gone it rolls it back and tells the vault's listeners.
func TestRecoverStale(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	watcher, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	heard := make(chan Recovery, 1)
	watcher.OnRecover(func(r Recovery) { heard <- r })

	u, _ := NewUndo("s3")
	if _, err := v.Write(WithUndo(t.Context(), u), "a.md", []byte("live\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n, err := watcher.RecoverStale(t.Context()); n != 1 || err != nil {
		t.Fatalf("RecoverStale during a live change set = %d, %v; want 1 pending", n, err)
	}
	if got := contents(t, dir)["a.md"]; got != "live\n" {
		t.Fatalf("a live change set was touched: a.md = %q", got)
	}
	u.logs[v].close() // its process dies
	if n, err := watcher.RecoverStale(t.Context()); n != 0 || err != nil {
		t.Fatalf("RecoverStale after the crash = %d, %v; want 0", n, err)
	}
	r := <-heard
	if r.ChangeSet != "s3" || len(r.Restored) != 1 || len(r.Kept) != 0 || r.Err != nil {
		t.Errorf("heard %+v", r)
	}
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestCommittedJournalIsNeverRolledBack: a change set that committed removed its
// journal before it let go of it, so a recoverer that finds the name gone does
// nothing, and one that took the journal's lock after the commit finds it unlinked.
func TestCommittedJournalIsNeverRolledBack(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("s4")
	if _, err := v.Write(WithUndo(t.Context(), u), "a.md", []byte("kept\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	name := internalDir + "/" + undoPrefix + "s4" + undoSuffix
	early, err := os.Open(filepath.Join(dir, filepath.FromSlash(name))) // a recoverer's open, before the commit
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close()
	if err := u.Commit(); err != nil {
		t.Fatal(err)
	}
	if ok, err := tryLockFile(early); !ok || err != nil {
		t.Fatalf("the journal is still locked after the commit: %v %v", ok, err)
	}
	if _, ok, bad, err := v.recoverOne(t.Context(), name); ok || bad || err != nil {
		t.Errorf("recoverOne after the commit = %v, %v, %v", ok, bad, err)
	}
	if got := contents(t, dir)["a.md"]; got != "kept\n" {
		t.Errorf("a.md = %q after the commit", got)
	}
}

// TestRecoverAfterTheRecordBeforeTheWrite: a crash between the journal's record of a
// write and the write itself leaves the file as the change set's previous write (or
// the pre-image) left it: it is still the change set's, and rolled back.
func TestRecoverAfterTheRecordBeforeTheWrite(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("s5")
	ctx := WithUndo(t.Context(), u)
	if _, err := v.Write(ctx, "a.md", []byte("first\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The record of a second write, then the crash before it.
	lg := u.logs[v]
	line, _ := json.Marshal(undoRecord{Path: "a.md", Post: HashOf([]byte("second\n"))})
	if err := lg.append(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	line, _ = json.Marshal(undoRecord{Path: "b.md", Existed: true, Data: []byte("beta\n"), Post: noFile})
	if err := lg.append(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	lg.close()
	if _, err := v.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if c, _ := v.RecoveryConflicts(); len(c) != 0 {
		t.Errorf("conflicts %v; want none", c)
	}
}

// TestRecoverKeepsWhatAnOldJournalCannotVouchFor: a journal without post-images (an
// older MemoTree's) cannot tell the change set's writes from later ones: a changed
// file is kept and reported, an unchanged one needs nothing.
func TestRecoverKeepsWhatAnOldJournalCannotVouchFor(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "changed since\n", "b.md": "beta\n"})
	if err := v.ensureInternal(); err != nil {
		t.Fatal(err)
	}
	old := `{"path":"a.md","existed":true,"data":"YWxwaGEK"}` + "\n" + `{"path":"b.md","existed":true,"data":"YmV0YQo="}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, internalDir, undoPrefix+"old"+undoSuffix), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, notes := notice.With(t.Context())
	if _, err := v.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, dir); got["a.md"] != "changed since\n" || got["b.md"] != "beta\n" {
		t.Errorf("after recovery: %v", got)
	}
	if msgs := notes.Take(); len(msgs) != 1 || !strings.Contains(msgs[0], "kept a.md") {
		t.Errorf("notices %q", msgs)
	}
	assertNoUndoLog(t, dir)
}

// TestConflictRecordAfterATornLine: the record of kept files ends in a torn line (a
// crash during an earlier append whose cut failed); the next recovery's record starts
// on a line of its own, so doctor still lists it.
func TestConflictRecordAfterATornLine(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	if err := v.ensureInternal(); err != nil {
		t.Fatal(err)
	}
	torn := `{"time":"2026-01-02T03:04:05Z","change_set":"old","path":"d/c.md","rea`
	if err := os.WriteFile(filepath.Join(dir, internalDir, conflictsName), []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	crashMidChangeSet(t, v, "torn")
	outsideWrite(t, dir, "a.md", "alpha, edited after the crash\n")
	if _, err := v.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	conflicts, err := v.RecoveryConflicts()
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) != 1 || conflicts[0].Path != "a.md" || conflicts[0].ChangeSet != "torn" {
		t.Errorf("conflicts after a torn line = %+v; want a.md of change set torn", conflicts)
	}
}
