// Package vaulttest holds what tests of several packages need to build a vault on
// disk. It is imported by tests only.
package vaulttest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files (vault-relative slash path → content) under dir, creating
// folders; a failure fails the test.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// New writes files into a fresh temporary folder and returns it.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}
