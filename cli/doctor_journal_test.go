package cli

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorSetsAsideADamagedJournal: a crashed script's undo journal with a damaged
// record in its middle keeps no one from opening the vault, but a write is refused
// with a result that says to run `memotree doctor --repair`; doctor lists the journal
// (exit 1), --repair sets it aside keeping the pre-images in .memotree/recovered/, and
// then the write goes through.
func TestDoctorSetsAsideADamagedJournal(t *testing.T) {
	dir := t.TempDir()
	b64 := base64.StdEncoding.EncodeToString([]byte("# A\n\nbefore the script\n"))
	journal := `{"path":"a.md","existed":true,"data":"` + b64 + `","mode":420,"post":"0000"}` + "\n" +
		`{"path":"b.md","exi` + "\n" + // damaged, and not the torn end
		`{"path":"c.md","above":".","post":"1111"}` + "\n"
	for name, text := range map[string]string{
		"a.md":                  "# A\n\nhalf of the script's work\n",
		".memotree/undo-s9.log": journal,
		".memotree/.gitignore":  "*\n",
		"c.md":                  "# C\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "call", "--library", "v="+dir, "create_entity", `{"entity_name":"New","content":"x"}`)
	if code == 0 || !strings.Contains(out, "error_code: needs_repair") || !strings.Contains(out, "memotree doctor --repair") {
		t.Fatalf("a write beside a damaged journal: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "New.md")); !os.IsNotExist(err) {
		t.Errorf("New.md was written: %v", err)
	}
	code, out, errOut = runCLI(t, "doctor", "--library", "v="+dir)
	if code != 1 || !strings.Contains(out, ".memotree/undo-s9.log") || !strings.Contains(out, "line 2 is damaged") || !strings.Contains(out, "doctor --repair") {
		t.Fatalf("doctor: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "doctor", "--repair", "--library", "v="+dir)
	if code != 0 || !strings.Contains(out, ".memotree/recovered/s9-") || !strings.Contains(out, "healthy") {
		t.Fatalf("doctor --repair: exit %d\n%s%s", code, out, errOut)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, ".memotree", "recovered", "s9-*"))
	if len(kept) != 1 {
		t.Fatalf("kept: %v", kept)
	}
	if b, err := os.ReadFile(filepath.Join(kept[0], "files", "a.md")); err != nil || string(b) != "# A\n\nbefore the script\n" {
		t.Errorf("the pre-image of a.md: %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(kept[0], "journal.log")); err != nil || string(b) != journal {
		t.Errorf("the journal, kept: %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "# A\n\nhalf of the script's work\n" {
		t.Errorf("a.md = %q; doctor changes no note", b)
	}
	if code, out, errOut := runCLI(t, "call", "--library", "v="+dir, "create_entity", `{"entity_name":"New","content":"x"}`); code != 0 {
		t.Errorf("a write after the repair: exit %d\n%s%s", code, out, errOut)
	}
}
