package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/internal/vaulttest"
)

// snapshot is every file and folder of a vault but .memotree: path → content ("/"
// for a folder). journey.yaml is in it: a failed write must not change it either.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	return vaulttest.Read(t, dir, internalDir)
}

// temps lists the temporary files anywhere in the vault, .memotree included.
func temps(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), TempPrefix) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// writeCase is one write path of the vault, on a fresh vault seeded with files.
type writeCase struct {
	name  string
	files map[string]string
	run   func(ctx context.Context, v *Vault) error
}

var diskFullSeed = map[string]string{"a.md": "alpha\n", "b.md": "beta\n", "d/c.md": "gamma\n", "journey.yaml": ""}

var writeCases = []writeCase{
	{"write an existing note", diskFullSeed, func(ctx context.Context, v *Vault) error {
		_, err := v.Write(ctx, "a.md", []byte("ALPHA\n"), WriteOptions{Actor: "test", IfHash: HashOf([]byte("alpha\n"))})
		return err
	}},
	{"create a note in new folders", diskFullSeed, func(ctx context.Context, v *Vault) error {
		_, err := v.Write(ctx, "x/y/new.md", []byte("new\n"), WriteOptions{Actor: "test", CreateOnly: true})
		return err
	}},
	{"batch", diskFullSeed, func(ctx context.Context, v *Vault) error {
		_, err := v.Apply(ctx, []Change{
			{Path: "a.md", Data: []byte("ALPHA\n")},
			{Path: "n/m/new.md", Data: []byte("new\n"), CreateOnly: true},
			{Path: "b.md", Delete: true},
			{Path: "d/c.md", Data: []byte("GAMMA\n")},
		}, WriteOptions{Actor: "test"})
		return err
	}},
	{"remove", diskFullSeed, func(ctx context.Context, v *Vault) error {
		return v.RemoveWith(ctx, "b.md", WriteOptions{Actor: "test"})
	}},
	{"move into a new folder", diskFullSeed, func(ctx context.Context, v *Vault) error {
		return v.RenameWith(ctx, "d/c.md", "e/f/c.md", WriteOptions{Actor: "test"})
	}},
	{"journey", diskFullSeed, func(ctx context.Context, v *Vault) error {
		return v.AppendJourney(ctx, Entry{Actor: "test", Op: "note"})
	}},
	{"transaction", diskFullSeed, func(ctx context.Context, v *Vault) error {
		// A script's writes, held by its stage and applied at its end as one batch.
		s := NewStage(v)
		tx := s.Vault()
		_, err := tx.Write(ctx, "a.md", []byte("ALPHA\n"), WriteOptions{Actor: "script"})
		if err == nil {
			_, err = tx.Apply(ctx, []Change{{Path: "s/n1.md", Data: []byte("one\n")}, {Path: "s/n2.md", Data: []byte("two\n")}}, WriteOptions{Actor: "script"})
		}
		if err == nil {
			err = tx.RemoveWith(ctx, "b.md", WriteOptions{Actor: "script"})
		}
		if err != nil {
			return err
		}
		changes, journey := s.Batch()
		_, err = v.Apply(ctx, changes, WriteOptions{Journey: journey})
		return err
	}},
}

// TestDiskFullAtEveryStep makes each write path fail at each of its steps in turn,
// with ENOSPC (a disk full for a moment), EIO and with a disk that stays full from that
// step on (so that the cleanup fails too, except removals, which free space). Whatever
// the step: no panic, no temporary file left; an error is a disk fault and leaves the
// vault (journey included) byte-identical, or — a batch that failed after it was
// decided — is completed at the next lock, once the disk has room; a success leaves
// the whole change.
func TestDiskFullAtEveryStep(t *testing.T) {
	faults := []struct {
		name string
		hook func(n int, steps *atomic.Int64) fsfault.Hook
	}{
		{"ENOSPC once", func(n int, s *atomic.Int64) fsfault.Hook { return fsfault.FailAt(n, syscall.ENOSPC, s) }},
		{"EIO once", func(n int, s *atomic.Int64) fsfault.Hook { return fsfault.FailAt(n, syscall.EIO, s) }},
		{"ENOSPC from then on", func(n int, s *atomic.Int64) fsfault.Hook { return fsfault.FailFrom(n, syscall.ENOSPC, s) }},
	}
	for _, c := range writeCases {
		t.Run(c.name, func(t *testing.T) {
			before, after, total := reference(t, c)
			if total < 2 {
				t.Fatalf("only %d steps counted: the seam is not reached", total)
			}
			for _, f := range faults {
				for n := 1; n <= total; n++ {
					diskFullStep(t, c, f.name, n, f.hook, before, after)
				}
			}
		})
	}
}

// memDir returns a new folder in memory (/dev/shm) where there is one, else on disk:
// the sweep makes thousands of writes, whose syncs a busy disk makes slow, and what
// it checks does not depend on the disk.
func memDir(t *testing.T) string {
	t.Helper()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "memotree-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// reference runs c without a fault and returns the vault before and after, and how
// many steps the write took.
func reference(t *testing.T, c writeCase) (before, after map[string]string, steps int) {
	t.Helper()
	v, dir := openWith(t, c.files)
	if err := v.ensureInternal(); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, dir)
	var n atomic.Int64
	restore := fsfault.Inject(fsfault.FailAt(0, nil, &n))
	err := c.run(t.Context(), v)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	after = snapshot(t, dir)
	delete(after, "journey.yaml") // its entry carries the time
	return before, after, int(n.Load())
}

func diskFullStep(t *testing.T, c writeCase, fault string, n int, hook func(int, *atomic.Int64) fsfault.Hook, before, after map[string]string) {
	t.Helper()
	where := func() string { return fmt.Sprintf("%s, %s at step %d", c.name, fault, n) }
	v, dir := openIn(t, memDir(t), c.files)
	if err := v.ensureInternal(); err != nil {
		t.Fatal(err)
	}
	var steps atomic.Int64
	restore := fsfault.Inject(hook(n, &steps))
	ctx, notes := notice.With(t.Context())
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				restore() // t.Fatalf ends the goroutine: the fault must not stay for the tests after
				t.Fatalf("%s: panic: %v", where(), p)
			}
		}()
		err = c.run(ctx, v)
	}()
	restore()
	got := snapshot(t, dir)
	if left := temps(dir); len(left) > 0 && !errors.Is(err, ErrPending) {
		t.Errorf("%s: temporary files left: %v", where(), left)
	}
	if err == nil {
		delete(got, "journey.yaml")
		if d := cmp.Diff(after, got); d != "" {
			t.Errorf("%s: succeeded (notices %q) but the change is not whole (-want +got):\n%s", where(), notes.Take(), d)
		}
		return
	}
	if !fsfault.Is(err) {
		t.Errorf("%s: error %v is not a disk fault", where(), err)
	}
	if errors.Is(err, ErrPending) {
		// Decided: the next lock, with room on the disk, completes it.
		unlock, lerr := v.Lock(t.Context())
		if lerr != nil {
			t.Fatal(lerr)
		}
		unlock()
		if left := temps(dir); len(left) > 0 {
			t.Errorf("%s: temporary files left after the next lock: %v", where(), left)
		}
		got = snapshot(t, dir)
		delete(got, "journey.yaml")
		if d := cmp.Diff(after, got); d != "" {
			t.Errorf("%s: %v; after the next lock (-want +got):\n%s", where(), err, d)
		}
		return
	}
	if d := cmp.Diff(before, got); d != "" {
		t.Errorf("%s: failed (%v) but changed the vault (-want +got):\n%s", where(), err, d)
	}
}

// TestInternalFileOnAFullDisk: the app's own files in .memotree (the search index,
// sessions, views) are replaced whole or not at all when the disk fails at any step,
// with no temporary file left.
func TestInternalFileOnAFullDisk(t *testing.T) {
	old, next := []byte("the index as it was"), []byte(strings.Repeat("the new index ", 1000))
	for _, from := range []bool{false, true} {
		for n := 1; ; n++ {
			v, dir := openIn(t, memDir(t), nil)
			if err := v.WriteInternal("search/index.bin", old); err != nil {
				t.Fatal(err)
			}
			var steps atomic.Int64
			hook := fsfault.FailAt(n, syscall.ENOSPC, &steps)
			if from {
				hook = fsfault.FailFrom(n, syscall.ENOSPC, &steps)
			}
			restore := fsfault.Inject(hook)
			err := v.WriteInternal("search/index.bin", next)
			restore()
			got, rerr := v.ReadInternal("search/index.bin")
			switch {
			case rerr != nil:
				t.Fatalf("step %d: %v", n, rerr)
			case err == nil && string(got) != string(next), err != nil && string(got) != string(old):
				t.Errorf("step %d (for good: %v): %v, and the file holds %.20q", n, from, err, got)
			case err != nil && !fsfault.Is(err):
				t.Errorf("step %d: %v is not a disk fault", n, err)
			}
			if left := temps(dir); len(left) > 0 {
				t.Errorf("step %d: temporary files left: %v", n, left)
			}
			if err == nil && int(steps.Load()) < n {
				break // every step was failed once
			}
		}
	}
}
