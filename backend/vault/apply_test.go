package vault

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

func openWith(t *testing.T, files map[string]string) (*Vault, string) {
	t.Helper()
	return openIn(t, t.TempDir(), files)
}

// openIn is openWith in the folder dir.
func openIn(t *testing.T, dir string, files map[string]string) (*Vault, string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v, dir
}

// contents returns every file of dir but the app's own, path → content.
func contents(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".memotree" {
			return filepath.SkipDir
		}
		if !d.IsDir() && rel != "journey.yaml" {
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func TestApplyAllOrNothing(t *testing.T) {
	start := map[string]string{"a.md": "A", "b.md": "B", "gone.md": "G"}
	tests := []struct {
		name    string
		changes func(v *Vault) []Change
		wantErr error
		want    map[string]string
	}{
		{"all applied", func(v *Vault) []Change {
			return []Change{
				{Path: "a.md", Data: []byte("A2"), IfHash: HashOf([]byte("A"))},
				{Path: "new/c.md", Data: []byte("C"), CreateOnly: true},
				{Path: "gone.md", Delete: true},
			}
		}, nil, map[string]string{"a.md": "A2", "b.md": "B", "new/c.md": "C"}},
		{"stale hash writes nothing", func(v *Vault) []Change {
			return []Change{
				{Path: "b.md", Data: []byte("B2")},
				{Path: "a.md", Data: []byte("A2"), IfHash: HashOf([]byte("stale"))},
			}
		}, ErrConflict, start},
		{"existing create writes nothing", func(v *Vault) []Change {
			return []Change{{Path: "x.md", Data: []byte("X")}, {Path: "b.md", Data: []byte("B2"), CreateOnly: true}}
		}, ErrExists, start},
		{"escape writes nothing", func(v *Vault) []Change {
			return []Change{{Path: "x.md", Data: []byte("X")}, {Path: ".git/config", Data: []byte("evil")}}
		}, ErrOutside, start},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, dir := openWith(t, start)
			_, err := v.Apply(t.Context(), tt.changes(v), WriteOptions{Actor: "agent", Op: "test"})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, contents(t, dir)); diff != "" {
				t.Errorf("vault (-want +got):\n%s", diff)
			}
			if _, err := v.ReadInternal(intentName); !errors.Is(err, ErrNotFound) {
				t.Errorf("intent left behind: %v", err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, internalDir, TempPrefix+"*")); len(left) > 0 {
				t.Errorf("staged intent left behind: %v", left)
			}
		})
	}
}

func TestApplyJournalsEveryFile(t *testing.T) {
	v, _ := openWith(t, map[string]string{"a.md": "A"})
	if _, err := v.Apply(t.Context(), []Change{{Path: "a.md", Data: []byte("A2")}, {Path: "b.md", Data: []byte("B")}}, WriteOptions{Actor: "agent@t1", Op: "rename_entity"}); err != nil {
		t.Fatal(err)
	}
	es, warns, err := v.Journey()
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Actor+" "+e.Op+" "+strings.Join(e.Entities, ","))
	}
	want := []string{"agent@t1 rename_entity a.md", "agent@t1 rename_entity b.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
	if !v.OwnWrite("b.md", HashOf([]byte("B"))) {
		t.Error("the batch's writes are not recognised as our own")
	}
}

// TestApplyJournalsAMove: a file written with From is journaled as the move of From,
// naming both paths, and JourneyLatest finds it under the old path.
func TestApplyJournalsAMove(t *testing.T) {
	v, _ := openWith(t, map[string]string{"a.md": "A", "c.md": "C"})
	changes := []Change{{Path: "a.md", Delete: true}, {Path: "d/b.md", Data: []byte("A, edited"), CreateOnly: true, From: "a.md"}, {Path: "c.md", Data: []byte("C2")}}
	if _, err := v.Apply(t.Context(), changes, WriteOptions{Actor: "agent", Op: "move_entity", Turn: "t1"}); err != nil {
		t.Fatal(err)
	}
	es, warns, err := v.Journey()
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Op+" "+strings.Join(e.Entities, ",")+" from="+e.From)
	}
	want := []string{"move_entity a.md from=", "move_entity d/b.md,a.md from=a.md", "move_entity c.md from="}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("journey (-want +got):\n%s", diff)
	}
	latest, err := v.JourneyLatest(1<<20, []string{"a.md"})
	if err != nil || len(latest) != 1 || latest[0].From != "a.md" || latest[0].Entities[0] != "d/b.md" {
		t.Errorf("JourneyLatest(a.md) = %+v, %v; want the move to d/b.md", latest, err)
	}
}

// TestRecoverFinishesADecidedBatch simulates a crash after the intent was recorded
// and one of three steps was done: the next Recover finishes the rest.
func TestRecoverFinishesADecidedBatch(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "old A", "b.md": "old B", "c.md": "C"})
	dirs := v.newBatchDirs()
	defer dirs.close()
	tmpA, err := v.writeTemp(dirs, target{path: "a.md", exists: true, perm: 0o644}, []byte("new A"), 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpB, err := v.writeTemp(dirs, target{path: "b.md", exists: true, perm: 0o644}, []byte("new B"), 0)
	if err != nil {
		t.Fatal(err)
	}
	steps := []step{{Temp: tmpA, Target: "a.md"}, {Temp: tmpB, Target: "b.md"}, {Target: "c.md"}}
	b, _ := json.Marshal(intent{Steps: steps})
	if err := v.WriteInternal(intentName, b); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, string(tmpA)), filepath.Join(dir, "a.md")); err != nil { // step 1 done, then the crash
		t.Fatal(err)
	}
	v2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v2.Close()
	done, err := v2.Recover(t.Context())
	if err != nil || !done {
		t.Fatalf("Recover = %v, %v", done, err)
	}
	if diff := cmp.Diff(map[string]string{"a.md": "new A", "b.md": "new B"}, contents(t, dir)); diff != "" {
		t.Errorf("after recovery (-want +got):\n%s", diff)
	}
	if again, err := v2.Recover(t.Context()); again || err != nil {
		t.Errorf("a second Recover = %v, %v; want nothing to do", again, err)
	}
}

func TestRecoverDropsATornIntent(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "A"})
	if err := v.WriteInternal(intentName, []byte(`{"steps":[{"temp":"x`)); err != nil {
		t.Fatal(err)
	}
	if done, err := v.Recover(t.Context()); done || err != nil {
		t.Fatalf("Recover = %v, %v", done, err)
	}
	if diff := cmp.Diff(map[string]string{"a.md": "A"}, contents(t, dir)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRecoverRefusesAHostileIntent(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "A"})
	b, _ := json.Marshal(intent{Steps: []step{{Temp: "a.md", Target: vpath.Path(".git/config")}}})
	if err := v.WriteInternal(intentName, b); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Recover(t.Context()); err == nil {
		t.Fatal("Recover followed an intent that names .git/config")
	}
	if diff := cmp.Diff(map[string]string{"a.md": "A"}, contents(t, dir)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func BenchmarkApply100(b *testing.B) {
	dir := b.TempDir()
	v, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	data := []byte(strings.Repeat("a line of a note\n", 600))
	changes := make([]Change, 100)
	for i := range changes {
		changes[i] = Change{Path: vpath.Path("notes/n" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".md"), Data: data}
	}
	for b.Loop() {
		if _, err := v.Apply(b.Context(), changes, WriteOptions{Actor: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
