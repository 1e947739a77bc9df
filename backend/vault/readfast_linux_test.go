//go:build linux

package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/vpath"
)

// TestReadManyCold reads a folder whose files are not in the page cache: the reader
// finds the first uncached, opens the others ahead, and every content comes back
// whole, including a file whose path is refused between others opened ahead.
func TestReadManyCold(t *testing.T) {
	files := map[string]string{}
	var paths []vpath.Path
	for i := range 40 {
		name := fmt.Sprintf("cold/n%02d.md", i)
		files[name] = fmt.Sprintf("note %d [[link %d]]\n%s", i, i, strings.Repeat(fmt.Sprintf("line %d of note %d\n", i, i), 1000+i))
		paths = append(paths, vpath.Path(name))
	}
	paths = append(paths[:20], append([]vpath.Path{"cold/../n00.md", "cold/missing.md"}, paths[20:]...)...)
	v, dir := openWith(t, files)
	for name := range files {
		evict(t, filepath.Join(dir, filepath.FromSlash(name)))
	}
	// A read that finds a file uncached starts reading it: check one file only, the
	// last to be read.
	checkEvicted(t, filepath.Join(dir, "cold", "n39.md"))
	// A file of which only the first page is cached: the read without waiting gets
	// that page, the plain reads must continue after it.
	cacheFirstPage(t, filepath.Join(dir, "cold", "n00.md"))
	before := readAheads.Load()
	var mu sync.Mutex
	got := map[vpath.Path]string{}
	err := v.ReadMany(t.Context(), paths, ReadManyOptions{Workers: 1}, func(i int, data []byte, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			got[paths[i]] = string(data)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		if got[vpath.Path(name)] != want {
			t.Errorf("%s: read %d bytes, want %d", name, len(got[vpath.Path(name)]), len(want))
		}
	}
	if len(got) != len(files) {
		t.Errorf("read %d files, want %d (the refused and missing paths give errors)", len(got), len(files))
	}
	if readAheads.Load() == before {
		t.Error("no folder was read ahead although its files were out of the page cache")
	}
}

// evict writes the file's pages out and drops them from the page cache.
func evict(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
}

// checkEvicted skips the test where the file system keeps files in memory (tmpfs),
// so that evict cannot drop them.
func checkEvicted(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := readNoWait(int(f.Fd()), b); err != unix.EAGAIN {
		t.Skipf("cannot drop %s from the page cache here (read without waiting: %v)", path, err)
	}
}

// cacheFirstPage reads the first page of an evicted file without read-ahead, so that
// only that page is cached.
func cacheFirstPage(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_RANDOM); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 100), 0); err != nil {
		t.Fatal(err)
	}
}

// TestFastReadBlocks: the fast reader opens without blocking (a named pipe must not
// hold it) and refuses a named pipe before reading; a file system that answers a
// non-blocking read of a regular file with EAGAIN (some FUSE file systems) gets the
// read again in blocking mode, so the file is read whole and not refused.
func TestFastReadBlocks(t *testing.T) {
	v, dir := openWith(t, map[string]string{"a.md": "alpha\n"})
	if err := unix.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := v.openDirReader(".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	pipe, err := d.open("pipe.md")
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pipe)
	if _, err := regularFd(pipe); !errors.Is(err, ErrNotRegular) {
		t.Errorf("regularFd of a named pipe: %v, want ErrNotRegular", err)
	}

	// A FUSE-like file system: EAGAIN for every read while the descriptor is
	// non-blocking, and no RWF_NOWAIT (the vault's noWaitOff), so the plain reads
	// do all the work.
	refused := 0
	readFd = func(fd int, b []byte) (int, error) {
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		if err != nil {
			return 0, err
		}
		if flags&unix.O_NONBLOCK != 0 {
			refused++
			return 0, unix.EAGAIN
		}
		return unix.Read(fd, b)
	}
	t.Cleanup(func() { readFd = unix.Read })
	v.noWaitOff.Store(true)
	data, _, err := d.read("a.md", 0, nil)
	if err != nil || string(data) != "alpha\n" {
		t.Fatalf("read through a file system answering EAGAIN: %q, %v; want the note", data, err)
	}
	if refused != 1 {
		t.Errorf("%d non-blocking reads were refused, want exactly 1 (then blocking mode)", refused)
	}
}
