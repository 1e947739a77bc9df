//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memotree/memotree/backend/vault"
)

// TestDoctorListsRecoveryConflicts: a crashed change set's journal names a.md, which
// changed again after the crash: the recovery keeps it, and doctor lists it (and a
// named pipe in the vault) until --repair forgets the list.
func TestDoctorListsRecoveryConflicts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("edited after the crash\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	journal := `{"path":"a.md","existed":true,"data":"b2xkCg==","post":"` + string(vault.HashOf([]byte("by the script\n"))) + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "undo-script-x.log"), []byte(journal), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "doctor", "--library", "v="+dir)
	if code != 1 || !strings.Contains(out, "1 files kept by the rollback of a crashed change set") || !strings.Contains(out, "a.md (script-x,") ||
		!strings.Contains(out, "pipe.md (named pipe)") {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "edited after the crash\n" {
		t.Errorf("a.md = %q: the recovery undid an edit made after the crash", b)
	}
	if code, out, errOut = runCLI(t, "doctor", "--repair", "--library", "v="+dir); code != 0 || !strings.Contains(out, "this list is now forgotten") {
		t.Fatalf("doctor --repair: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, "doctor", "--library", "v="+dir); code != 0 || strings.Contains(out, "kept by the rollback") {
		t.Fatalf("doctor after --repair: exit %d\n%s%s", code, out, errOut)
	}
}
