package search

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/corpora"
)

// corpus copies a shared Obsidian Help vault into a temporary folder, or skips the
// test saying where the corpus was looked for.
func corpus(t testing.TB, name string) string {
	t.Helper()
	src := corpora.Dir(t, name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeVault creates a vault from name → content.
func writeVault(t testing.TB, files map[string]string) string { return vaulttest.New(t, files) }

// openIndex opens the vault at dir and its index.
func openIndex(t testing.TB, dir string, o Options) (*vault.Vault, *Index, Stats) {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix, st, err := Open(t.Context(), v.State(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ix.Close()
		v.Close()
	})
	return v, ix, st
}

func pathOf(name string) vpath.Path { return vpath.Path(name) }
