//go:build unix

package regular

import (
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
