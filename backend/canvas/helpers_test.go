package canvas

import (
	"testing"

	"github.com/memotree/memotree/backend/internal/vaulttest"
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
func writeVault(t testing.TB, files map[string]string) string { return vaulttest.New(t, files) }

// genVault generates a vaultgen vault of n notes.
func genVault(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}
