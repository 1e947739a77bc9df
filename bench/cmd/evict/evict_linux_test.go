package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEvict(t *testing.T) {
	p := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := evict(p); err != nil {
		t.Errorf("evict: %v", err)
	}
	if err := evict(p + ".missing"); err == nil {
		t.Error("evict of a missing file succeeded")
	}
	if b, err := os.ReadFile(p); err != nil || len(b) != 1<<20 {
		t.Errorf("file changed by evict: %d bytes, %v", len(b), err)
	}
}
