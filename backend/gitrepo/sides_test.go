package gitrepo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
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

// TestChangeSidesPackedAsLoose reads the same sides whether HEAD's blobs are loose
// objects (read by the fast path) or packed (read by go-git): an edit, a deletion,
// and a file whose HEAD version is over MaxDiffBytes while the working one is small,
// so that the size in HEAD alone makes it too large.
func TestChangeSidesPackedAsLoose(t *testing.T) {
	for _, packed := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "vault")
		files := map[string]string{"huge.md": strings.Repeat("y\n", gitrepo.MaxDiffBytes)}
		for i := range 20 {
			files[fmt.Sprintf("n/%02d.md", i)] = fmt.Sprintf("# Note %d\n\nbody %d\n", i, i)
		}
		write(t, dir, files)
		run(t, dir, "init", "-q")
		run(t, dir, "add", "-A")
		run(t, dir, "commit", "-q", "-m", "initial")
		if packed {
			run(t, dir, "repack", "-adq")
			run(t, dir, "prune-packed")
		}
		r := open(t, dir)
		var changes []gitrepo.Change
		for i := range 20 {
			p := fmt.Sprintf("n/%02d.md", i)
			changes = append(changes, gitrepo.Change{Path: vpath.Path(p)})
			if i%3 == 0 {
				os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
			} else {
				write(t, dir, map[string]string{p: files[p] + "edited\n"})
			}
		}
		write(t, dir, map[string]string{"huge.md": "small now\n"})
		changes = append(changes, gitrepo.Change{Path: "huge.md"})
		sides, err := r.ChangeSides(t.Context(), changes)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range sides[:20] {
			p := string(changes[i].Path)
			want := gitrepo.Sides{Old: []byte(files[p]), New: []byte(files[p] + "edited\n"), InHead: true, OnDisk: true}
			if i%3 == 0 {
				want.New, want.OnDisk = nil, false
			}
			if string(s.Old) != string(want.Old) || string(s.New) != string(want.New) || s.InHead != want.InHead || s.OnDisk != want.OnDisk || s.TooLarge {
				t.Errorf("packed %v, %s: %+v, want %+v", packed, p, s, want)
			}
		}
		if h := sides[20]; !h.TooLarge || !h.InHead || !h.OnDisk || h.Old != nil || h.New != nil {
			t.Errorf("packed %v, huge.md (too large in HEAD): %+v", packed, h)
		}
	}
}

// TestChangeSidesDamagedLooseObject refuses a loose object whose content is damaged
// rather than show a wrong old version.
func TestChangeSidesDamagedLooseObject(t *testing.T) {
	dir, r := newRepo(t)
	h := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD:a.md"))
	obj := filepath.Join(dir, ".git", "objects", h[:2], h[2:])
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff // the zlib checksum
	os.Chmod(obj, 0o644)
	if err := os.WriteFile(obj, b, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"a.md": "edited\n"})
	if s, err := r.ChangeSides(t.Context(), []gitrepo.Change{{Path: "a.md"}}); err == nil {
		t.Fatalf("a damaged object was read: %q", s[0].Old)
	}
}
