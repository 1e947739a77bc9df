package vault

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

// TestRaceSwapsAFolderForALink: between the moment the resolver judged a path and
// the write, another program replaces a folder on the way by a link to .git (the
// test hook afterResolve makes that moment deterministic). The write never follows
// it: it lands in the folder that was judged (now moved aside), or is refused naming
// the link (a removal of a file the judged folder lacks finds nothing); .git does not
// change by a byte, and a removal removes the judged file, not .git's.
func TestRaceSwapsAFolderForALink(t *testing.T) {
	ops := map[string]func(v *Vault, p vpath.Path) error{
		"Write": func(v *Vault, p vpath.Path) error {
			_, err := v.Write(t.Context(), p, []byte("trap\n"), WriteOptions{})
			return err
		},
		"Apply": func(v *Vault, p vpath.Path) error {
			_, err := v.Apply(t.Context(), []Change{{Path: p, Data: []byte("trap\n")}}, WriteOptions{})
			return err
		},
		"RemoveWith": func(v *Vault, p vpath.Path) error { return v.RemoveWith(t.Context(), p, WriteOptions{}) },
		"RenameWith": func(v *Vault, p vpath.Path) error { return v.RenameWith(t.Context(), "a.md", p, WriteOptions{}) },
	}
	// swap is the folder replaced by a link; p is the path the operation is given.
	cases := []struct{ swap, p string }{
		{"notes", "notes/n.md"},   // an existing folder, an existing file
		{"notes", "notes/new.md"}, // an existing folder, a new file
		{"deep/er", "deep/er/n.md"},
		{"fresh", "fresh/new.md"}, // a folder that did not exist yet
	}
	for name, op := range ops {
		for _, c := range cases {
			t.Run(name+"/"+c.p, func(t *testing.T) {
				v, dir := openWith(t, map[string]string{".git/config": "[core]\n", ".git/n.md": "git's\n",
					"a.md": "alpha\n", "notes/n.md": "note\n", "deep/er/n.md": "deep\n"})
				takeLock(t, v)
				before := guardedState(t, dir)
				swapped := false
				v.afterResolve = func(vpath.Path) {
					if swapped {
						return
					}
					swapped = true
					real := filepath.Join(dir, filepath.FromSlash(c.swap))
					if err := os.Rename(real, real+".aside"); err != nil && !os.IsNotExist(err) {
						t.Error(err)
					}
					up := strings.Repeat("../", strings.Count(c.swap, "/"))
					if err := os.Symlink(up+".git", real); err != nil {
						t.Skip("no symbolic links here:", err)
					}
				}
				err := op(v, vpath.Path(c.p))
				if !swapped {
					t.Fatal("the hook did not run")
				}
				switch {
				case err == nil, errors.Is(err, ErrNotFound) && name == "RemoveWith":
				case !errors.Is(err, ErrOutside):
					t.Errorf("%s(%s) = %v, want it made in the judged folder or ErrOutside", name, c.p, err)
				case !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), c.swap):
					t.Errorf("%s(%s) = %v, want the link %s named", name, c.p, err, c.swap)
				}
				if diff := cmp.Diff(before, guardedState(t, dir)); diff != "" {
					t.Errorf("%s(%s): .git changed (-before +after):\n%s", name, c.p, diff)
				}
			})
		}
	}
}
