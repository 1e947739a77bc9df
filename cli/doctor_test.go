package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
)

func TestDoctorReportsAndRepairs(t *testing.T) {
	dir := t.TempDir()
	orphan := filepath.Join(dir, vault.TempName())
	persons := filepath.Join(dir, vault.TempPrefix+"notes.md") // a person's own file, three hours old
	for name, text := range map[string]string{"a.md": "# A\n\n[[Nowhere]]\n", orphan: "torn", persons: "mine"} {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	threeHoursAgo := time.Now().Add(-3 * time.Hour)
	if err := os.Chtimes(persons, threeHoursAgo, threeHoursAgo); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "doctor", "--library", "v="+dir)
	if code != 1 || !strings.Contains(out, "1 temporary files left") || !strings.Contains(out, "doctor --repair") || !strings.Contains(out, "[[Nowhere]]") {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "doctor", "--repair", "--library", "v="+dir)
	if code != 0 || !strings.Contains(out, "removed") || !strings.Contains(out, "healthy") {
		t.Fatalf("doctor --repair: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the orphan is still there: %v", err)
	}
	if b, err := os.ReadFile(persons); err != nil || string(b) != "mine" {
		t.Errorf("doctor --repair removed or changed the person's %s: %q, %v", persons, b, err)
	}
	code, out, _ = runCLI(t, "doctor", "--json", "--library", "v="+dir)
	if code != 0 || !strings.Contains(out, `"broken_links":{"count":1`) {
		t.Errorf("doctor --json: exit %d\n%s", code, out)
	}
}

// TestDoctorWarnsOfWhatWindowsAndMacOSWouldNotKeep: notes whose paths differ only in
// case, and a name Windows reserves, are listed as warnings with what to do; the
// vault is still healthy (exit 0).
func TestDoctorWarnsOfWhatWindowsAndMacOSWouldNotKeep(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"Note.md": "# upper\n", "note.md": "# lower\n", "aux.md": "# aux\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "doctor", "--library", "v="+dir)
	for _, want := range []string{
		"1 groups of files whose paths differ only in case (warning) — on Windows and macOS they are one file",
		"rename one of them", "[Note.md note.md]",
		"1 paths Windows cannot hold (warning)", `aux.md: "aux.md" is a device name Windows reserves (AUX)`,
		"healthy",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not say %q:\n%s%s", want, out, errOut)
		}
	}
	if code != 0 {
		t.Errorf("doctor: exit %d, want 0 (warnings only)", code)
	}
}
