// Package vaulttest holds what tests of several packages need to build a vault on
// disk. It is imported by tests only.
package vaulttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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

// Read maps every file under dir to its content and every folder to "/", by
// slash-separated path relative to dir, leaving out the paths in skip (and whatever
// is under them): what a test compares before and after an operation that must
// change nothing. A failure to read fails the test.
func Read(t testing.TB, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case slices.Contains(skip, rel):
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			out[rel] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
