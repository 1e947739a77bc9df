//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDoctorListsSpecialFiles: a named pipe in the vault is listed, never read, and
// is no reason to fail.
func TestDoctorListsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "doctor", "--library", "v="+dir)
	if code != 0 || !strings.Contains(out, "pipe.md (named pipe)") || !strings.Contains(out, "healthy") {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
}
