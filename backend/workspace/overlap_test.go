package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/vaults"
)

// TestLibrariesThatOverlapAreRefused: a library whose folder is another library's,
// lies inside one or holds one is refused when the workspace opens (the command
// line's --library) and when one more is mounted (the window), naming the other;
// folders side by side open.
func TestLibrariesThatOverlapAreRefused(t *testing.T) {
	root := t.TempDir()
	x, y := filepath.Join(root, "X"), filepath.Join(root, "Y")
	writeNotes(t, x, map[string]string{"a.md": "# A\n", "sub/b.md": "# B\n"})
	writeNotes(t, y, map[string]string{"c.md": "# C\n"})
	link := filepath.Join(root, "link")
	if err := os.Symlink(x, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(x, "sub")
	for _, tt := range []struct {
		name  string
		specs []Spec
		says  string
	}{
		{"inside", []Spec{{Name: "a", Path: x}, {Name: "b", Path: sub}}, sub + " is inside the library a (" + x + ")"},
		{"around", []Spec{{Name: "a", Path: sub}, {Name: "b", Path: x}}, x + " holds the library a (" + sub + ")"},
		{"same", []Spec{{Name: "a", Path: x}, {Name: "b", Path: x}}, "is the folder of the library a already"},
		{"same through a link", []Spec{{Name: "a", Path: x}, {Name: "b", Path: link}}, "is the folder of the library a already"},
		{"inside through a link", []Spec{{Name: "a", Path: link}, {Name: "b", Path: sub}}, "is inside the library a"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws, err := Open(t.Context(), tt.specs, Options{})
			if err == nil {
				ws.Close()
				t.Fatalf("Open(%v) opened", tt.specs)
			}
			if !errors.Is(err, vaults.ErrInsideVault) || !strings.Contains(err.Error(), "open library b") || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Open(%v) = %v, want ErrInsideVault saying %q", tt.specs, err, tt.says)
			}
		})
	}
	ws, err := Open(t.Context(), []Spec{{Name: "a", Path: x}, {Name: "c", Path: y}}, Options{})
	if err != nil {
		t.Fatalf("two folders side by side: %v", err)
	}
	defer ws.Close()
	if _, err := ws.Mount(t.Context(), Spec{Name: "b", Path: sub}); !errors.Is(err, vaults.ErrInsideVault) {
		t.Errorf("Mount of a folder inside a library: %v, want ErrInsideVault", err)
	}
	if _, err := ws.Mount(t.Context(), Spec{Name: "r", Path: root}); !errors.Is(err, vaults.ErrInsideVault) || !strings.Contains(err.Error(), "holds the library a") {
		t.Errorf("Mount of a folder holding libraries: %v, want ErrInsideVault naming a", err)
	}
	if n := len(ws.Libraries()); n != 2 {
		t.Errorf("%d libraries open after the refusals, want 2", n)
	}
}
