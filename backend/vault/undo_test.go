package vault

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

var undoSeed = map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "d/c.md": "gamma\n"}

// changeAll changes the vault through every write path, recorded in u.
func changeAll(t *testing.T, v *Vault, u *Undo) {
	t.Helper()
	ctx := WithUndo(t.Context(), u)
	if _, err := v.Write(ctx, "a.md", []byte("ALPHA\n"), WriteOptions{Actor: "script"}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Apply(ctx, []Change{{Path: "new/n.md", Data: []byte("new\n"), CreateOnly: true}, {Path: "b.md", Delete: true}}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := v.RenameWith(ctx, "d/c.md", "e/c.md", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Write(ctx, "a.md", []byte("ALPHA twice\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestUndoRollbackRestoresEveryPath(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, err := NewUndo("t1")
	if err != nil {
		t.Fatal(err)
	}
	changeAll(t, v, u)
	if got := len(u.Touched()[0].Pre); got != 5 {
		t.Errorf("%d pre-images, want 5 (a, new/n, b, d/c, e/c)", got)
	}
	restored, err := u.Rollback(t.Context(), "script")
	if err != nil {
		t.Fatal(err)
	}
	if len(restored) != 1 || len(restored[0].Paths) != 5 {
		t.Errorf("restored %+v", restored)
	}
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("after rollback (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
	if _, err := v.Write(WithUndo(t.Context(), u), "a.md", nil, WriteOptions{}); err == nil {
		t.Error("a write after the change set ended was recorded")
	}
}

func TestUndoCommitKeepsWrites(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("t2")
	changeAll(t, v, u)
	if err := u.Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.md": "ALPHA twice\n", "new/n.md": "new\n", "e/c.md": "gamma\n"}
	if d := cmp.Diff(want, contents(t, dir)); d != "" {
		t.Errorf("after commit (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
}

// TestRecoverLeavesALiveChangeSetAlone: another Vault on the folder (another process,
// in effect) does not roll back a journal whose owner holds it; once the owner is gone
// it does, ignoring a torn last record.
func TestRecoverLeavesALiveChangeSetAlone(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("t3")
	changeAll(t, v, u)
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if did, err := other.Recover(t.Context()); err != nil || did {
		t.Fatalf("recover during a live change set: %v %v", did, err)
	}
	if got := contents(t, dir)["a.md"]; got != "ALPHA twice\n" {
		t.Fatalf("a live change set was rolled back: %q", got)
	}
	// The owner dies: its descriptor closes, the journal stays, with a torn record.
	lg := u.logs[v]
	if _, err := lg.f.Write([]byte(`{"path":"zzz.md","exis`)); err != nil {
		t.Fatal(err)
	}
	lg.close()
	orphan := filepath.Join(dir, "new", TempName()) // a write the kill cut short
	if err := os.WriteFile(orphan, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	persons := filepath.Join(dir, "new", TempPrefix+"notes.md") // a person's, three hours old
	if err := os.WriteFile(persons, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	threeHoursAgo := time.Now().Add(-3 * time.Hour)
	if err := os.Chtimes(persons, threeHoursAgo, threeHoursAgo); err != nil {
		t.Fatal(err)
	}
	if did, err := other.Recover(t.Context()); err != nil || !did {
		t.Fatalf("recover after the owner died: %v %v", did, err)
	}
	wantAfter := maps.Clone(undoSeed)
	wantAfter["new/"+TempPrefix+"notes.md"] = "mine"
	if d := cmp.Diff(wantAfter, contents(t, dir)); d != "" {
		t.Errorf("after recovery (-want +got):\n%s", d)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the orphaned temporary file stayed: %v", err)
	}
	assertNoUndoLog(t, dir)
}

func TestUndoRefusesBadIDsAndFolders(t *testing.T) {
	if _, err := NewUndo("../x"); err == nil {
		t.Error("a path as id was accepted")
	}
	v, _ := openWith(t, undoSeed)
	u, _ := NewUndo("t4")
	defer u.Commit()
	if err := v.RenameWith(WithUndo(t.Context(), u), "d", "d2", WriteOptions{}); err == nil {
		t.Error("a folder rename was recorded as undoable")
	}
	if _, err := v.Stat(vpath.Path("d/c.md")); err != nil {
		t.Errorf("the refused rename moved the folder: %v", err)
	}
}

func assertNoUndoLog(t *testing.T, dir string) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(dir, ".memotree", "undo-*")); len(m) > 0 {
		t.Errorf("undo journals left: %v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, ".memotree", intentName)); !os.IsNotExist(err) {
		t.Errorf("intent left: %v", err)
	}
}

// TestRemoveOrphanTemps: temporary files a walk found among the notes are removed
// under the lock; in .memotree only those older than a minute. A person's own files
// that merely start with the prefix (".memotree-tmp-notes.md", three hours old) stay,
// as does anything not named exactly as MemoTree names its temporary files.
func TestRemoveOrphanTemps(t *testing.T) {
	dir := t.TempDir()
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	orphanNotes, orphanRoot := "n/"+TempName(), TempName()
	oldInternal, newInternal := internalDir+"/"+TempName(), internalDir+"/"+TempName()
	want := map[string]bool{"a.md": true, orphanNotes: false, orphanRoot: false, oldInternal: false, newInternal: true}
	for _, name := range personsTempNames {
		want[name] = true
	}
	for name := range want {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if name == newInternal {
			continue
		}
		old := time.Now().Add(-3 * time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := v.WalkPaths(t.Context()); err != nil {
		t.Fatal(err)
	}
	n, err := v.RemoveOrphanTemps(t.Context())
	if err != nil || n != 3 {
		t.Errorf("removed %d, %v; want 3", n, err)
	}
	for name, want := range want {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		if (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", name, err == nil, want)
		}
	}
}

// TestChangeSetNeverLosesASymbolicLink: a change set that removes or moves a symbolic
// link to a note, then fails, leaves the link where it was. The journal records the
// files it would put back (the link's target, followed), so a link removed or moved
// inside a change set is refused; a link written through stays a link.
func TestChangeSetNeverLosesASymbolicLink(t *testing.T) {
	for _, op := range []string{"remove", "rename"} {
		t.Run(op, func(t *testing.T) {
			v, dir := openWith(t, undoSeed)
			link := filepath.Join(dir, "link.md")
			if err := os.Symlink("a.md", link); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			u, _ := NewUndo("t10")
			ctx := WithUndo(t.Context(), u)
			if _, err := v.Write(ctx, "link.md", []byte("through the link\n"), WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var err error
			if op == "remove" {
				err = v.RemoveWith(ctx, "link.md", WriteOptions{})
			} else {
				err = v.RenameWith(ctx, "link.md", "moved.md", WriteOptions{})
			}
			t.Logf("%s of the link inside the change set: %v", op, err)
			if _, err := u.Rollback(t.Context(), ""); err != nil {
				t.Fatal(err)
			}
			if to, err := os.Readlink(link); err != nil || to != "a.md" {
				t.Errorf("after the rollback link.md is %q, %v; want the link to a.md back", to, err)
			}
			if _, err := os.Lstat(filepath.Join(dir, "moved.md")); !os.IsNotExist(err) {
				t.Errorf("moved.md after the rollback: %v", err)
			}
			if got := contents(t, dir)["a.md"]; got != "alpha\n" {
				t.Errorf("a.md = %q after the rollback", got)
			}
			assertNoUndoLog(t, dir)
		})
	}
}

// TestRollbackKeepsAFilesMode: a note only its owner may read (0600) that a change set
// removed or moved away comes back with its mode, not as a new file readable by
// everyone (0644) — by the change set's own rollback and by a crash's recovery.
func TestRollbackKeepsAFilesMode(t *testing.T) {
	for _, crash := range []bool{false, true} {
		for _, op := range []string{"remove", "rename"} {
			v, dir := openWith(t, undoSeed)
			private := filepath.Join(dir, "a.md")
			if err := os.Chmod(private, 0o600); err != nil {
				t.Fatal(err)
			}
			u, _ := NewUndo("t11")
			ctx := WithUndo(t.Context(), u)
			var err error
			if op == "remove" {
				err = v.RemoveWith(ctx, "a.md", WriteOptions{})
			} else {
				err = v.RenameWith(ctx, "a.md", "moved.md", WriteOptions{})
			}
			if err != nil {
				t.Fatal(err)
			}
			if crash {
				u.logs[v].close() // the process dies
				if _, err := v.Recover(t.Context()); err != nil {
					t.Fatal(err)
				}
			} else if _, err := u.Rollback(t.Context(), ""); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(private)
			if err != nil {
				t.Fatalf("%s (crash %v): a.md not put back: %v", op, crash, err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Errorf("%s (crash %v): a.md put back with mode %v, want -rw-------", op, crash, st.Mode().Perm())
			}
		}
	}
}
