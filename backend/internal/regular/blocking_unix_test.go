//go:build unix

package regular

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// nonBlocking reports whether f's descriptor is in non-blocking mode.
func nonBlocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	var ferr error
	if err := rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
		t.Fatal(err)
	}
	if ferr != nil {
		t.Fatal(ferr)
	}
	return flags&unix.O_NONBLOCK != 0
}

// TestOpenedFilesBlock: the open is non-blocking (a named pipe must not hold it), but
// the regular file it hands out reads blocking: on a file system that answers a
// non-blocking read of a regular file with EAGAIN (some FUSE file systems), Go would
// pass EAGAIN straight to the caller, since it does not poll regular files.
func TestOpenedFilesBlock(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.md"), []byte("note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	opens := map[string]func() (*os.File, error){
		"Open": func() (*os.File, error) { f, _, err := Open(root, "note.md"); return f, err },
		"OpenFile": func() (*os.File, error) {
			f, _, err := OpenFile(root, "note.md", os.O_RDWR|os.O_APPEND, 0)
			return f, err
		},
		"OpenPath": func() (*os.File, error) {
			f, _, err := OpenPath(filepath.Join(dir, "note.md"))
			return f, err
		},
	}
	for name, open := range opens {
		f, err := open()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if nonBlocking(t, f) {
			t.Errorf("%s hands out a descriptor still in non-blocking mode", name)
		}
		f.Close()
	}
}

// TestOpenFileRefusesANamedPipe: OpenFile, for writing too, answers at once for a
// named pipe (an open for writing of a pipe without a reader fails with ENXIO when
// non-blocking; one with O_RDWR would succeed and be read from) with ErrNotRegular.
func TestOpenFileRefusesANamedPipe(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, _, err := OpenFile(root, "pipe.md", os.O_RDWR|os.O_APPEND, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenFile of a named pipe: %v, want ErrNotRegular", err)
	}
}
