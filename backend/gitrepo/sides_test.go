package gitrepo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
)

// TestChangeSides reads what each kind of change compares: an edit, a deletion, a new
// file, a rename (against its old path), a symbolic link (its target, as git stores
// it) and a file over MaxDiffBytes (not read).
func TestChangeSides(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "# A\n\nedited\n", "new.md": "new\n", "big.md": strings.Repeat("x\n", gitrepo.MaxDiffBytes)})
	os.Remove(filepath.Join(dir, "people", "Ada.md"))
	if err := os.Rename(filepath.Join(dir, "people", "Charles.md"), filepath.Join(dir, "Charles.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	changes := []gitrepo.Change{{Path: "a.md"}, {Path: "people/Ada.md"}, {Path: "new.md"}, {Path: "Charles.md", From: "people/Charles.md"}, {Path: "link.md"}, {Path: "big.md"}}
	sides, err := r.ChangeSides(t.Context(), changes)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		old, cur       string
		inHead, onDisk bool
		tooLarge       bool
	}
	want := []got{
		{base["a.md"], "# A\n\nedited\n", true, true, false},
		{base["people/Ada.md"], "", true, false, false},
		{"", "new\n", false, true, false},
		{base["people/Charles.md"], base["people/Charles.md"], true, true, false},
		{"", "a.md", false, true, false},
		{"", "", false, true, true},
	}
	for i, s := range sides {
		g := got{string(s.Old), string(s.New), s.InHead, s.OnDisk, s.TooLarge}
		if g != want[i] {
			t.Errorf("%s: %+v, want %+v", changes[i].Path, g, want[i])
		}
	}
	if _, err := r.ChangeSides(t.Context(), []gitrepo.Change{{Path: "../out.md"}}); err == nil {
		t.Error("a path out of the vault was read")
	}
}
