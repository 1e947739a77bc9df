package cli

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorListsAnOlderMemoTreesJournal: an undo journal that an older MemoTree left
// when a script it ran crashed is not used: a write goes through, and nothing rolls
// the notes it names back. doctor lists it, says what it is and what to do (exit 1),
// and --repair leaves it; once the person deletes it, the vault is healthy.
func TestDoctorListsAnOlderMemoTreesJournal(t *testing.T) {
	dir := t.TempDir()
	b64 := base64.StdEncoding.EncodeToString([]byte("# A\n\nbefore the script\n"))
	journal := `{"path":"a.md","existed":true,"data":"` + b64 + `","mode":420,"post":"0000"}` + "\n"
	for name, text := range map[string]string{
		"a.md":                  "# A\n\nhalf of the script's work\n",
		".memotree/undo-s9.log": journal,
		".memotree/.gitignore":  "*\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runCLI(t, "call", "--library", "v="+dir, "create_entity", `{"entity_name":"New","content":"x"}`); code != 0 {
		t.Fatalf("a write beside an older MemoTree's journal: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"doctor"}, {"doctor", "--repair"}} {
		code, out, errOut := runCLI(t, append(args, "--library", "v="+dir)...)
		if code != 1 || !strings.Contains(out, "1 undo journals left by an older MemoTree") || !strings.Contains(out, ".memotree/undo-s9.log") || !strings.Contains(out, "delete the journal") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".memotree", "undo-s9.log")); err != nil || string(b) != journal {
		t.Errorf("the journal after doctor --repair: %q, %v; doctor leaves it", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "# A\n\nhalf of the script's work\n" {
		t.Errorf("a.md = %q; nothing rolls it back", b)
	}
	if err := os.Remove(filepath.Join(dir, ".memotree", "undo-s9.log")); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "doctor", "--library", "v="+dir); code != 0 || !strings.Contains(out, "healthy") {
		t.Fatalf("doctor once the journal is deleted: exit %d\n%s%s", code, out, errOut)
	}
}
