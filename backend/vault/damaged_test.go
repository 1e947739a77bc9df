package vault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memotree/memotree/backend/internal/notice"
)

// journalName is the vault path of the journal of change set id.
func journalName(id string) string { return internalDir + "/" + undoPrefix + id + undoSuffix }

// insertLine puts line before the line numbered at (from 1) of the journal of id in dir.
func insertLine(t *testing.T, dir, id string, at int, line string) []byte {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(journalName(id)))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines = append(lines[:at-1], append([]string{line + "\n"}, lines[at-1:]...)...)
	out := []byte(strings.Join(lines, ""))
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// crashState is the vault as crashMidChangeSet leaves it.
var crashState = map[string]string{"a.md": "ALPHA by the script\n", "d/c.md": "gamma\n", "new/n.md": "made by the script\n"}

// TestDamagedJournalOpensAndRefusesWrites: a crashed change set's journal that no
// rollback can use — damaged before its torn end, unreadable, or naming a path that is
// not content — does not keep the vault from opening: Recover succeeds with a notice
// that names the journal and `memotree doctor`, reads work, the watcher's poll sees
// nothing to wait for, and every content write is refused with ErrDamagedJournal
// (saying to run `memotree doctor --repair`) until the journal is set aside; the
// journal and the files stay as the crash left them.
func TestDamagedJournalOpensAndRefusesWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string, other *Vault)
		reason string
	}{
		{"a damaged record before the end", func(t *testing.T, dir string, _ *Vault) {
			insertLine(t, dir, "s1", 2, `{"path":"zz.md","exi`)
		}, "line 2 is damaged"},
		{"unreadable", func(t *testing.T, _ string, other *Vault) {
			other.onJournalRead = func(string) error { return syscall.EIO }
		}, "cannot be read"},
		{"a path that is not content", func(t *testing.T, dir string, _ *Vault) {
			insertLine(t, dir, "s1", 1, `{"path":".git/config","existed":true,"data":"eA=="}`)
		}, "not content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, dir := openWith(t, undoSeed)
			crashMidChangeSet(t, v, "s1")
			other, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			tc.damage(t, dir, other)
			before, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(journalName("s1"))))

			ctx, notes := notice.With(t.Context())
			if _, err := other.Recover(ctx); err != nil {
				t.Fatalf("Recover with a damaged journal = %v; want the vault to open", err)
			}
			told := strings.Join(notes.Take(), "\n")
			if !strings.Contains(told, journalName("s1")) || !strings.Contains(told, "memotree doctor --repair") || !strings.Contains(told, tc.reason) {
				t.Errorf("notice = %q; want the journal, why (%q) and `memotree doctor --repair`", told, tc.reason)
			}
			if ds := other.DamagedJournals(); len(ds) != 1 || ds[0].Name != journalName("s1") || ds[0].ChangeSet != "s1" {
				t.Errorf("DamagedJournals = %+v", ds)
			}
			if b, err := other.ReadFile("a.md"); err != nil || string(b) != crashState["a.md"] {
				t.Errorf("read a.md = %q, %v", b, err)
			}
			if n, err := other.RecoverStale(t.Context()); n != 0 || err != nil {
				t.Errorf("RecoverStale = %d, %v; want nothing left to poll for", n, err)
			}
			writes := map[string]func() error{
				"Write": func() error {
					_, err := other.Write(t.Context(), "d/c.md", []byte("x\n"), WriteOptions{})
					return err
				},
				"Apply": func() error {
					_, err := other.Apply(t.Context(), []Change{{Path: "e.md", Data: []byte("e\n")}}, WriteOptions{})
					return err
				},
				"Remove": func() error { return other.Remove(t.Context(), "d/c.md", "") },
				"Rename": func() error { return other.Rename(t.Context(), "d/c.md", "d/z.md") },
				"UpdateFile": func() error {
					_, err := other.UpdateFile(t.Context(), "a.md", func(c []byte, _ bool) ([]byte, error) { return c, nil }, WriteOptions{})
					return err
				},
			}
			for name, w := range writes {
				err := w()
				if !errors.Is(err, ErrDamagedJournal) || !strings.Contains(err.Error(), "memotree doctor --repair") {
					t.Errorf("%s with a damaged journal = %v; want ErrDamagedJournal saying to run `memotree doctor --repair`", name, err)
				}
			}
			if d := cmp.Diff(crashState, contents(t, dir)); d != "" {
				t.Errorf("the vault changed (-want +got):\n%s", d)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(journalName("s1")))); string(after) != string(before) {
				t.Errorf("the journal changed:\n%q\nwant\n%q", after, before)
			}
		})
	}
}

// TestSetAsideJournalKeepsEveryPreimage: setting a damaged journal aside keeps every
// pre-image its readable records hold, as files at their paths, and the journal byte
// for byte, under .memotree/recovered; then writes go on. A journal whose change set
// lives is refused.
func TestSetAsideJournalKeepsEveryPreimage(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	crashMidChangeSet(t, v, "s1")
	raw := insertLine(t, dir, "s1", 2, "not a record")
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	u, _ := NewUndo("live")
	if _, err := v.Write(WithUndo(t.Context(), u), "d/c.md", []byte("GAMMA\n"), WriteOptions{}); !errors.Is(err, ErrDamagedJournal) {
		t.Fatalf("a write of a change set = %v; want ErrDamagedJournal", err)
	}
	kept, err := other.SetAsideJournal(t.Context(), journalName("s1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(kept, ".memotree/recovered/s1-") {
		t.Errorf("kept in %q", kept)
	}
	got := map[string]string{}
	root := filepath.Join(dir, filepath.FromSlash(kept))
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			b, _ := os.ReadFile(p)
			got[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	want := map[string]string{"journal.log": string(raw), "files/a.md": "alpha\n", "files/b.md": "beta\n"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("what was kept (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
	if ds := other.DamagedJournals(); len(ds) != 0 {
		t.Errorf("DamagedJournals after setting aside = %+v", ds)
	}
	if _, err := other.Write(t.Context(), "d/c.md", []byte("GAMMA\n"), WriteOptions{}); err != nil {
		t.Errorf("a write after the journal was set aside: %v", err)
	}
	if d := cmp.Diff(map[string]string{"a.md": "ALPHA by the script\n", "d/c.md": "GAMMA\n", "new/n.md": "made by the script\n"}, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}

	live, _ := NewUndo("running")
	if _, err := v.Write(WithUndo(t.Context(), live), "a.md", []byte("x\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	defer live.Rollback(t.Context(), "")
	if _, err := other.SetAsideJournal(t.Context(), journalName("running")); err == nil {
		t.Error("a live change set's journal was set aside")
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(journalName("running")))); err != nil {
		t.Errorf("the live journal: %v", err)
	}
}

// TestAnUnreadableJournalIsReadAgain: a journal that could not be read (a disk
// failing for a moment) is read again at the next lock, not kept damaged for good:
// once it reads, the crashed change set is rolled back and the write goes on.
func TestAnUnreadableJournalIsReadAgain(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	crashMidChangeSet(t, v, "s1")
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.onJournalRead = func(string) error { return syscall.EIO }
	if _, err := other.Recover(t.Context()); err != nil || len(other.DamagedJournals()) != 1 {
		t.Fatalf("Recover = %v, damaged %+v", err, other.DamagedJournals())
	}
	other.onJournalRead = nil
	if _, err := other.Write(t.Context(), "d/c.md", []byte("GAMMA\n"), WriteOptions{}); err != nil {
		t.Fatalf("a write once the journal reads: %v", err)
	}
	if d := cmp.Diff(map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "d/c.md": "GAMMA\n"}, contents(t, dir)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if ds := other.DamagedJournals(); len(ds) != 0 {
		t.Errorf("DamagedJournals = %+v", ds)
	}
	assertNoUndoLog(t, dir)
}
