package mapped

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFile maps a real file with and without Populate, an empty file, and a file
// that is missing; and a mapping survives the file being replaced by a rename.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	want := strings.Repeat("memotree ", 10000)
	if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {Populate: true}} {
		data, release, err := File(path, o)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != want {
			t.Errorf("%+v: mapped %d bytes, not the file's", o, len(data))
		}
		release()
	}

	data, release, err := File(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "g")
	if err := os.WriteFile(other, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if string(data) != want {
		t.Error("the mapping changed when the file was replaced by a rename")
	}
	release()

	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if data, release, err := File(empty, Options{}); err != nil || len(data) != 0 {
		t.Errorf("empty file: %d bytes, %v", len(data), err)
	} else {
		release()
	}
	if _, _, err := File(filepath.Join(dir, "missing"), Options{}); !os.IsNotExist(err) {
		t.Errorf("missing file: err = %v, want not-exist", err)
	}
}
