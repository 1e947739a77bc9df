package vault

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadOnlyNoteIsNeverWritten: a note whose permissions allow no writing is refused
// with ErrReadOnly by every write path — write, batch (rewrite, delete), removal,
// move — and nothing changes, its mode included.
func TestReadOnlyNoteIsNeverWritten(t *testing.T) {
	ops := map[string]func(v *Vault) error{
		"write": func(v *Vault) error {
			_, err := v.Write(t.Context(), "ro.md", []byte("x"), WriteOptions{})
			return err
		},
		"batch rewrite": func(v *Vault) error {
			_, err := v.Apply(t.Context(), []Change{{Path: "a.md", Data: []byte("A2")}, {Path: "ro.md", Data: []byte("x")}}, WriteOptions{})
			return err
		},
		"batch delete": func(v *Vault) error {
			_, err := v.Apply(t.Context(), []Change{{Path: "ro.md", Delete: true}}, WriteOptions{})
			return err
		},
		"remove": func(v *Vault) error { return v.RemoveWith(t.Context(), "ro.md", WriteOptions{}) },
		"move":   func(v *Vault) error { return v.RenameWith(t.Context(), "ro.md", "moved/ro.md", WriteOptions{}) },
	}
	for name, op := range ops {
		v, dir := openWith(t, map[string]string{"a.md": "A", "ro.md": "read only"})
		if err := os.Chmod(filepath.Join(dir, "ro.md"), 0o444); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		if err := op(v); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", name, err)
		}
		if d := cmp.Diff(before, snapshot(t, dir)); d != "" {
			t.Errorf("%s changed the vault (-want +got):\n%s", name, d)
		}
		if st, err := os.Stat(filepath.Join(dir, "ro.md")); err != nil || st.Mode().Perm() != 0o444 {
			t.Errorf("%s: mode %v %v", name, st.Mode(), err)
		}
	}
}
