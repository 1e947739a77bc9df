package canvas

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/bench/vaultgen"
)

// openLib mounts dir as a library, closed at the end of the test.
func openLib(t testing.TB, dir string) *library.Library {
	t.Helper()
	l, err := library.Open(t.Context(), "test", dir, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// writeVault writes files (vault-relative name → content) into a fresh folder.
func writeVault(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// genVault generates a vaultgen vault of n notes.
func genVault(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}
