package library

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

// TestScanRemovesOnlyMemoTreesTemps: the scan at open removes the temporary file a
// crashed write left (a name MemoTree makes), and leaves a person's own
// ".memotree-tmp-notes.md", three hours old, where it was.
func TestScanRemovesOnlyMemoTreesTemps(t *testing.T) {
	dir := t.TempDir()
	orphan, persons := "notes/"+vault.TempName(), "notes/"+vault.TempPrefix+"notes.md"
	writeFiles(t, dir, map[string]string{"a.md": "# A\n", orphan: "half a note", persons: "# Mine\n"})
	threeHoursAgo := time.Now().Add(-3 * time.Hour)
	for _, p := range []string{orphan, persons} {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(p)), threeHoursAgo, threeHoursAgo); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Open(t.Context(), "t", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Graph(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(orphan))); !os.IsNotExist(err) {
		t.Errorf("the scan left the orphaned temporary file %s: %v", orphan, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(persons))); err != nil || string(b) != "# Mine\n" {
		t.Errorf("the scan removed or changed the person's %s: %q, %v", persons, b, err)
	}
}
