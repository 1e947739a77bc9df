package dirents

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLstatMode stats real entries of a folder through its descriptor: a file keeps
// its permission bits, a folder, a link (not followed) and a pipe get their types,
// and a missing name is an error.
func TestLstatMode(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "n.md"), []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("n.md", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]fs.FileMode{"n.md": 0o640, "sub": fs.ModeDir, "link": fs.ModeSymlink, "pipe": fs.ModeIrregular}
	for name, w := range want {
		var st unix.Stat_t
		if err := Lstat(int(f.Fd()), name, &st); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := Mode(&st)
		if name == "n.md" && got != w || name != "n.md" && got.Type() != w {
			t.Errorf("%s: mode %v, want %v", name, got, w)
		}
	}
	var st unix.Stat_t
	if err := Lstat(int(f.Fd()), "missing", &st); err != unix.ENOENT {
		t.Errorf("missing: err = %v, want ENOENT", err)
	}
}
