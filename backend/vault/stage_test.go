package vault

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

// stagedMethods are the exported methods of Vault that a staged Vault answers from its
// stage, and sharedMethods those it answers as its base does (MemoTree's own files,
// the lock, the journey as read, recovery). A new method must be put in one of them:
// one that writes content belongs to the stage, or a transaction would write through.
// View and State are listed with the staged ones: they wrap the staged Vault itself, so
// what they read of notes comes from its stage.
var (
	stagedMethods = []string{
		"Apply", "AppendExternal", "AppendJourney", "AppendJourneyEntries", "Close", "Read", "ReadFile", "ReadMany",
		"Remove", "RemoveWith", "Rename", "RenameWith", "Stat", "Update", "UpdateFile",
		"State", "View", "Walk", "WalkNames", "WalkOrdered", "WalkPaths", "WalkUnder", "Write",
	}
	sharedMethods = []string{
		"AppendExternal", "CachePath", "CachesInside", "Dir", "HoldCache",
		"HoldInternal", "InternalPath", "InternalTempLive", "Journey", "JourneyLatest",
		"JourneyTail", "ListCache", "ListInternal", "Lock", "OwnWrite", "ReadCache",
		"ReadInternal", "ReadObsidianConfig", "Recover", "RecoverStale", "RemoveCache",
		"RemoveInternal", "RemoveOrphanTemps", "SetCacheDir", "WriteCache", "WriteInternal",
	}
)

func TestEveryVaultMethodIsStagedOrShared(t *testing.T) {
	known := map[string]bool{}
	for _, m := range slices.Concat(stagedMethods, sharedMethods) {
		known[m] = true
	}
	typ := reflect.TypeFor[*Vault]()
	for i := range typ.NumMethod() {
		if m := typ.Method(i).Name; !known[m] {
			t.Errorf("Vault.%s is new: say in stage_test.go whether a staged Vault answers it from its stage (it writes or reads notes) or as its base does, and make it so", m)
		}
		delete(known, typ.Method(i).Name)
	}
	for m := range known {
		t.Errorf("Vault.%s is listed in stage_test.go but no longer exists", m)
	}
}

// everyFile returns every file under dir, .memotree and the journey included.
func everyFile(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStageWritesNothingAndSeesItsWrites(t *testing.T) {
	ctx := t.Context()
	v, dir := openWith(t, map[string]string{"a.md": "A\n", "b.md": "B\n", "keep/c.md": "C\n", "old.md": "O\n"})
	before := everyFile(t, dir)
	s := NewStage(v)
	sv := s.Vault()
	o := WriteOptions{Actor: "script", Turn: "t1"}
	if _, err := sv.Write(ctx, "new/n.md", []byte("N\n"), WriteOptions{CreateOnly: true, Actor: "script", Op: "create_entity"}); err != nil {
		t.Fatal(err)
	}
	if _, err := sv.UpdateFile(ctx, "a.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, "more\n"...), nil }, o); err != nil {
		t.Fatal(err)
	}
	if err := sv.RemoveWith(ctx, "b.md", o); err != nil {
		t.Fatal(err)
	}
	if err := sv.RenameWith(ctx, "old.md", "moved/old.md", o); err != nil {
		t.Fatal(err)
	}
	if _, err := sv.Apply(ctx, []Change{{Path: "keep/c.md", Data: []byte("C2\n")}}, o); err != nil {
		t.Fatal(err)
	}
	if got := everyFile(t, dir); !cmp.Equal(before, got) {
		t.Fatalf("the stage wrote to disk (-before +after):\n%s", cmp.Diff(before, got))
	}

	read := func(p vpath.Path) string {
		b, err := sv.ReadFile(p)
		if errors.Is(err, ErrNotFound) {
			return "<none>"
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := map[vpath.Path]string{"a.md": "A\nmore\n", "b.md": "<none>", "new/n.md": "N\n", "old.md": "<none>", "moved/old.md": "O\n", "keep/c.md": "C2\n"}
	for p, w := range want {
		if got := read(p); got != w {
			t.Errorf("staged read of %s = %q, want %q", p, got, w)
		}
	}
	list, err := sv.Walk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, fi := range list {
		paths = append(paths, string(fi.Path))
	}
	if diff := cmp.Diff([]string{"a.md", "keep/c.md", "moved/old.md", "new/n.md"}, paths); diff != "" {
		t.Errorf("staged walk (-want +got):\n%s", diff)
	}
	paths = paths[:0]
	if err := sv.WalkOrdered(ctx, func() bool { return true }, func(fi FileInfo) bool { paths = append(paths, string(fi.Path)); return len(paths) < 3 }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.md", "keep/c.md", "moved/old.md"}, paths); diff != "" {
		t.Errorf("staged ordered walk, stopped at the third file (-want +got):\n%s", diff)
	}
	if st, err := sv.Stat("new"); err != nil || !st.IsDir {
		t.Errorf("stat of a folder only the stage holds = %+v, %v; want a folder", st, err)
	}
	got := map[vpath.Path]string{}
	err = sv.ReadMany(ctx, []vpath.Path{"a.md", "b.md", "keep/c.md"}, ReadManyOptions{}, func(i int, data []byte, err error) {
		p := []vpath.Path{"a.md", "b.md", "keep/c.md"}[i]
		if err != nil {
			got[p] = "<none>"
			return
		}
		got[p] = string(data)
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[vpath.Path]string{"a.md": "A\nmore\n", "b.md": "<none>", "keep/c.md": "C2\n"}, got); diff != "" {
		t.Errorf("staged ReadMany (-want +got):\n%s", diff)
	}
	if b, _ := v.ReadFile("a.md"); string(b) != "A\n" {
		t.Errorf("the base reads %q; the stage leaked", b)
	}
}

func TestStageKeepsTheBasesRules(t *testing.T) {
	ctx := t.Context()
	v, dir := openWith(t, map[string]string{"a.md": "A\n", "ro.md": "R\n", "d/x.md": "X\n"})
	if err := os.Chmod(filepath.Join(dir, "ro.md"), 0o444); err != nil {
		t.Fatal(err)
	}
	sv := NewStage(v).Vault()
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"create over a file", func() error {
			_, err := sv.Write(ctx, "a.md", nil, WriteOptions{CreateOnly: true})
			return err
		}(), ErrExists},
		{"compare-and-swap on another version", func() error {
			_, err := sv.Write(ctx, "a.md", nil, WriteOptions{IfHash: HashOf([]byte("other"))})
			return err
		}(), ErrConflict},
		{"a read-only note", func() error {
			_, err := sv.Write(ctx, "ro.md", []byte("W"), WriteOptions{})
			return err
		}(), ErrReadOnly},
		{"a read-only note updated", func() error {
			_, err := sv.UpdateFile(ctx, "ro.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, 'x'), nil }, WriteOptions{})
			return err
		}(), ErrReadOnly},
		{"the journey", func() error {
			_, err := sv.Write(ctx, "journey.yaml", nil, WriteOptions{})
			return err
		}(), ErrOutside},
		{"inside .git", func() error {
			_, err := sv.Write(ctx, ".git/config", nil, WriteOptions{})
			return err
		}(), ErrOutside},
		{"a folder's name", func() error {
			_, err := sv.Write(ctx, "d", nil, WriteOptions{})
			return err
		}(), ErrExists},
		{"a staged file's name as a folder", func() error {
			if _, err := sv.Write(ctx, "made.md", nil, WriteOptions{}); err != nil {
				return err
			}
			_, err := sv.Write(ctx, "made.md/inside.md", nil, WriteOptions{})
			return err
		}(), ErrExists},
		{"a missing file removed", sv.RemoveWith(ctx, "none.md", WriteOptions{}), ErrNotFound},
		{"a move onto a file", sv.RenameWith(ctx, "a.md", "d/x.md", WriteOptions{}), ErrExists},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if _, err := sv.Write(ctx, "a.md/inside.md", nil, WriteOptions{}); err == nil {
		t.Errorf("a note inside a file's name was staged")
	}
	if err := sv.RemoveWith(ctx, "d", WriteOptions{}); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("removing a folder inside a transaction: %v, want a refusal that names the folder", err)
	}
	_, err := sv.Apply(ctx, []Change{{Path: "a.md", Data: []byte("A2")}, {Path: "b.md", Data: []byte("B"), IfHash: HashOf([]byte("x"))}}, WriteOptions{})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("a batch with a failing condition: %v, want ErrConflict", err)
	}
	if b, _ := sv.ReadFile("a.md"); string(b) != "A\n" {
		t.Errorf("a refused batch staged part of itself: a.md reads %q", b)
	}
}

func TestStageBatchLandsWhole(t *testing.T) {
	ctx := t.Context()
	v, dir := openWith(t, map[string]string{"a.md": "A\n", "b.md": "B\n", "old.md": "O\n"})
	s := NewStage(v)
	sv := s.Vault()
	o := WriteOptions{Actor: "script", Turn: "t1", Op: "update_entity"}
	mustStage := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := sv.Write(ctx, "a.md", []byte("A2\n"), o)
	mustStage(err)
	mustStage(sv.RemoveWith(ctx, "b.md", o))
	mustStage(sv.RenameWith(ctx, "old.md", "sub/old.md", o))
	_, err = sv.Write(ctx, "tmp.md", []byte("gone"), o)
	mustStage(err)
	mustStage(sv.RemoveWith(ctx, "tmp.md", o)) // created and removed: not in the batch

	changes, entries := s.Batch()
	if len(changes) != 4 {
		t.Fatalf("batch of %d changes, want 4 (a written, b and old removed, sub/old created): %+v", len(changes), changes)
	}
	if len(entries) != 5 {
		t.Errorf("%d journey entries, want one per staged write (5)", len(entries))
	}
	if _, err := v.Apply(ctx, changes, WriteOptions{Journey: entries}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.md": "A2\n", "sub/old.md": "O\n"}
	if got := contents(t, dir); !cmp.Equal(want, got) {
		t.Errorf("after the batch (-want +got):\n%s", cmp.Diff(want, got))
	}
	j, _, err := v.Journey()
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, e := range j {
		ops = append(ops, e.Actor+" "+e.Op+" "+strings.Join(e.Entities, ","))
	}
	wantOps := []string{"script update_entity a.md", "script update_entity b.md", "script update_entity old.md,sub/old.md", "script update_entity tmp.md", "script update_entity tmp.md"}
	if diff := cmp.Diff(wantOps, ops); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
}

// TestStageBatchRefusesWhatSomeoneElseChanged is the transaction's promise: a batch
// applied after another writer changed one of its files lands not at all, and the
// other writer's change stays.
func TestStageBatchRefusesWhatSomeoneElseChanged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		other func(ctx context.Context, v *Vault) error
	}{
		{"appended to a note the script wrote", func(ctx context.Context, v *Vault) error {
			_, err := v.UpdateFile(ctx, "a.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, "theirs\n"...), nil }, WriteOptions{Actor: "cli"})
			return err
		}},
		{"created the note the script creates", func(ctx context.Context, v *Vault) error {
			_, err := v.Write(ctx, "new.md", []byte("theirs\n"), WriteOptions{Actor: "cli"})
			return err
		}},
		{"removed the note the script removes", func(ctx context.Context, v *Vault) error {
			return v.RemoveWith(ctx, "b.md", WriteOptions{Actor: "cli"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			v, dir := openWith(t, map[string]string{"a.md": "A\n", "b.md": "B\n"})
			other, err := Open(dir) // another writer, as another process would be
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			s := NewStage(v)
			sv := s.Vault()
			if _, err := sv.UpdateFile(ctx, "a.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, "script\n"...), nil }, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := sv.Write(ctx, "new.md", []byte("script\n"), WriteOptions{CreateOnly: true}); err != nil {
				t.Fatal(err)
			}
			if err := sv.RemoveWith(ctx, "b.md", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := tc.other(ctx, other); err != nil {
				t.Fatal(err)
			}
			after := contents(t, dir)
			changes, entries := s.Batch()
			_, err = v.Apply(ctx, changes, WriteOptions{Journey: entries})
			if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrExists) {
				t.Fatalf("the batch over someone else's change: %v, want ErrConflict or ErrExists", err)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("the refusal %v does not name the file", err)
			}
			if got := contents(t, dir); !cmp.Equal(after, got) {
				t.Errorf("a refused batch changed the vault (-before +after):\n%s", cmp.Diff(after, got))
			}
		})
	}
}

func TestStageChangedListsWhatDiffers(t *testing.T) {
	ctx := t.Context()
	v, _ := openWith(t, map[string]string{"a.md": "A\n", "same.md": "S\n"})
	s := NewStage(v)
	sv := s.Vault()
	if _, err := sv.Write(ctx, "same.md", []byte("S\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := sv.Write(ctx, "a.md", []byte("A2\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got := s.Changed()
	want := []StagedFile{{Path: "a.md", Existed: true, Before: []byte("A\n"), Exists: true, After: []byte("A2\n")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Changed (-want +got):\n%s", diff)
	}
}
