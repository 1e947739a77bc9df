//go:build unix

package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/vpath"
)

// within fails the test if fn has not returned after 10 s: a read that blocks on a
// named pipe would never return.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still blocked after 10 s", what)
	}
}

// specialVault makes a vault holding, under note names, a named pipe, a character
// device (/dev/zero's numbers, where mknod is allowed: as root), a link inside the
// vault to the pipe, absolute and relative links to /dev/zero, and a journey that is
// a named pipe.
func specialVault(t *testing.T) (*Vault, string, []vpath.Path) {
	t.Helper()
	v, dir := openWith(t, map[string]string{"a.md": "A"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "journey.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	special := []vpath.Path{"pipe.md", "link.md", "zero-abs.md", "zero-rel.md"}
	if err := unix.Mknod(filepath.Join(dir, "zero.md"), unix.S_IFCHR|0o644, int(unix.Mkdev(1, 5))); err == nil {
		special = append(special, "zero.md")
	} else {
		t.Logf("no device node (mknod: %v): the links to /dev/zero stand for it", err)
	}
	for name, to := range map[string]string{"link.md": "pipe.md", "zero-abs.md": "/dev/zero", "zero-rel.md": "../../../../../../../../dev/zero"} {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return v, dir, special
}

// TestSpecialFilesAreRefused: no read path of the vault blocks on, or reads from, a
// named pipe or a device that has a note's name (or a link to one): each read fails at
// once with ErrNotRegular (or ErrOutside for a link out of the vault); writes refuse
// them too; the walk does not list them; the journey as a named pipe is refused.
func TestSpecialFilesAreRefused(t *testing.T) {
	v, _, special := specialVault(t)
	ctx := t.Context()
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotRegular) && !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want ErrNotRegular or ErrOutside", what, err)
		}
	}
	for _, p := range special {
		within(t, "read "+string(p), func() {
			_, err := v.ReadFile(p)
			refused("ReadFile "+string(p), err)
			_, _, err = v.Read(p)
			refused("Read "+string(p), err)
			_, err = v.Write(ctx, p, []byte("x"), WriteOptions{IfHash: HashOf([]byte("x"))})
			refused("Write with IfHash "+string(p), err)
			_, err = NewStage(v).Vault().Write(ctx, p, []byte("x"), WriteOptions{})
			refused("Write in a transaction "+string(p), err)
			_, err = v.Apply(ctx, []Change{{Path: p, Data: []byte("x")}}, WriteOptions{})
			refused("Apply "+string(p), err)
		})
	}
	within(t, "ReadMany", func() {
		paths := append([]vpath.Path{"a.md"}, special...)
		got := map[vpath.Path]error{}
		if err := v.ReadMany(ctx, paths, ReadManyOptions{}, func(i int, _ []byte, err error) { got[paths[i]] = err }); err != nil {
			t.Fatal(err)
		}
		if got["a.md"] != nil {
			t.Errorf("a.md: %v", got["a.md"])
		}
		for _, p := range special {
			refused("ReadMany "+string(p), got[p])
		}
	})
	within(t, "walk", func() {
		files, err := v.Walk(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 1 || files[0].Path != "a.md" {
			t.Errorf("the walk lists %+v; want a.md only", files)
		}
	})
	within(t, "journey", func() {
		_, _, err := v.Journey()
		refused("Journey", err)
		_, err = v.JourneyLatest(1<<20, nil)
		refused("JourneyLatest", err)
		refused("AppendJourney", v.AppendJourney(ctx, Entry{Actor: "test", Op: "x"}))
	})
}

// TestObsidianConfigThatIsANamedPipe: Obsidian's settings file as a named pipe is
// refused at once, not waited on.
func TestObsidianConfigThatIsANamedPipe(t *testing.T) {
	v, dir := openWith(t, map[string]string{".obsidian/app.json": "{}"})
	if err := syscall.Mkfifo(filepath.Join(dir, ".obsidian", "graph.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, "ReadObsidianConfig", func() {
		if _, err := v.ReadObsidianConfig("graph.json"); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadObsidianConfig of a named pipe: %v", err)
		}
	})
}

// TestNamedPipeInPlaceOfAFolder: a named pipe where a path needs a folder
// (pipe/x.md) makes reads, writes, listing and the lock's check of .memotree fail at
// once instead of waiting for a writer.
func TestNamedPipeInPlaceOfAFolder(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "A"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, "a path through a named pipe", func() {
		if _, err := v.ReadFile("pipe/x.md"); err == nil {
			t.Error("ReadFile through a named pipe succeeded")
		}
		var got error
		if err := v.ReadMany(t.Context(), []vpath.Path{"pipe/x.md"}, ReadManyOptions{}, func(_ int, _ []byte, err error) { got = err }); err != nil || got == nil {
			t.Errorf("ReadMany through a named pipe: %v, %v", err, got)
		}
		if _, err := v.Write(t.Context(), "pipe/x.md", []byte("x"), WriteOptions{}); err == nil {
			t.Error("a write through a named pipe succeeded")
		}
		if _, err := v.WalkUnder(t.Context(), "pipe"); err == nil {
			t.Error("WalkUnder a named pipe succeeded")
		}
		if _, err := v.ListInternal("pipe-list"); err != nil {
			t.Errorf("ListInternal of a missing folder: %v", err)
		}
	})
	// .memotree itself replaced by a named pipe: every lock checks it for leftovers.
	if err := os.RemoveAll(filepath.Join(dir, internalDir)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, internalDir), 0o644); err != nil {
		t.Fatal(err)
	}
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	within(t, "a lock with .memotree a named pipe", func() {
		if unlock, err := other.Lock(t.Context()); err == nil {
			unlock()
			t.Error("the lock was taken with .memotree a named pipe")
		}
		if err := other.RecoverStale(t.Context()); err != nil {
			t.Logf("RecoverStale: %v", err)
		}
	})
}
