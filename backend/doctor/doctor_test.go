package doctor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/doctor"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

func write(t *testing.T, dir string, files map[string]string) { vaulttest.Write(t, dir, files) }

func TestCheckFindsEveryKind(t *testing.T) {
	dir := t.TempDir()
	orphan := "notes/" + vault.TempName()
	persons := "notes/" + vault.TempPrefix + "notes.md" // a person's own file, not ours
	write(t, dir, map[string]string{
		persons:                          "# Mine\n",
		"good.md":                        "# Good\n\nSee [[Missing note]] and [[b/same]].\n",
		"a/Same.md":                      "# Same A\n",
		"b/same.md":                      "# Same B\n",
		"bad.md":                         "---\ntags: [unclosed\n---\n\nbody\n",
		orphan:                           "half a note",
		".git/" + vault.TempPrefix + "x": "not ours to judge",
	})
	threeHoursAgo := time.Now().Add(-3 * time.Hour)
	for _, p := range []string{orphan, persons} {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(p)), threeHoursAgo, threeHoursAgo); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AppendJourney(t.Context(), vault.Entry{Actor: "user", Op: "write"}); err != nil {
		t.Fatal(err)
	}
	v.Close()
	f, err := os.OpenFile(filepath.Join(dir, "journey.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("- {time: nonsense\n")
	f.Close()
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Notes != 4 {
		t.Errorf("notes = %d, want 4", r.Notes)
	}
	if r.TempFiles.Count != 1 || r.TempFiles.Examples[0].Path != orphan || r.TempFiles.Examples[0].Removed {
		t.Errorf("temp files = %+v, want %s, kept", r.TempFiles, orphan)
	}
	if r.BrokenNotes.Count != 1 || r.BrokenNotes.Examples[0].Path != "bad.md" {
		t.Errorf("broken notes = %+v, want bad.md", r.BrokenNotes)
	}
	if r.BrokenLinks.Count != 1 || r.BrokenLinks.Examples[0].Target != "Missing note" || r.BrokenLinks.Examples[0].From != "good.md" {
		t.Errorf("broken links = %+v, want Missing note from good.md", r.BrokenLinks)
	}
	if r.DuplicateNames.Count != 1 || len(r.DuplicateNames.Examples[0].Paths) != 2 {
		t.Errorf("duplicate names = %+v, want Same twice", r.DuplicateNames)
	}
	if r.JourneyErrors.Count != 1 {
		t.Errorf("journey errors = %+v, want the one bad line", r.JourneyErrors)
	}
	if r.Healthy() {
		t.Error("a vault with an orphan, a broken note and a bad journey line is reported healthy")
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(orphan))); err != nil {
		t.Errorf("a check without Repair removed the orphan: %v", err)
	}

	r, err = doctor.Check(t.Context(), "v", dir, doctor.Options{Repair: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.TempFiles.Count != 1 || !r.TempFiles.Examples[0].Removed {
		t.Errorf("repair: temp files = %+v", r.TempFiles)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(orphan))); !os.IsNotExist(err) {
		t.Errorf("repair left the orphan: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", vault.TempPrefix+"x")); err != nil {
		t.Errorf("repair touched .git: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(persons))); err != nil || string(b) != "# Mine\n" {
		t.Errorf("repair removed or changed the person's %s: %q, %v", persons, b, err)
	}
}

func TestCheckHealthyVault(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.md": "# A\n\n[[b]]\n", "b.md": "---\ntags: [x]\n---\n# B\n"})
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Healthy() || r.BrokenLinks.Count != 0 || r.DuplicateNames.Count != 0 || r.Notes != 2 || r.Links != 1 {
		t.Errorf("healthy vault reported as %+v", r)
	}
}

// TestCheckReportsWhatWindowsAndMacOSWouldNotKeep: real files that Linux keeps apart
// and holds, and Windows or macOS would not: two notes whose paths differ only in
// case (one file there), a reserved device name, a character Windows refuses, a
// folder ending in a dot, and a path of 260 characters or more under a typical vault
// folder on Windows. They are warnings: the vault stays healthy.
func TestCheckReportsWhatWindowsAndMacOSWouldNotKeep(t *testing.T) {
	dir := t.TempDir()
	root := doctor.WindowsRoot(dir)
	// A path exactly at MAX_PATH under root, and one a character shorter.
	long := "long/" + strings.Repeat("x", 259-len(root)-1-len("long/")-len(".md")+1) + ".md"
	short := "long/" + strings.Repeat("y", len(long)-len("long/")-len(".md")-1) + ".md"
	write(t, dir, map[string]string{
		"a/Note.md":    "# upper\n",
		"a/note.md":    "# lower\n",
		"b/NOTE.md":    "# another folder\n",
		"con.md":       "# the console\n",
		"why?.md":      "# a question\n",
		"trail./in.md": "# in a folder ending in a dot\n",
		long:           "# long\n",
		short:          "# just short enough\n",
		"fine.md":      "# fine\n",
	})
	r, err := doctor.Check(t.Context(), "v", dir, doctor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantClashes := []doctor.CaseClash{{Paths: []vpath.Path{"a/Note.md", "a/note.md"}}}
	if d := cmp.Diff(wantClashes, r.CaseClashes.Examples); d != "" || r.CaseClashes.Count != 1 {
		t.Errorf("case clashes (-want +got):\n%s", d)
	}
	got := map[vpath.Path]string{}
	for _, w := range r.WindowsPaths.Examples {
		got[w.Path] = strings.Join(w.Problems, "; ")
	}
	for p, word := range map[vpath.Path]string{"con.md": "device name", "why?.md": "refuses", "trail./in.md": "ends in a dot",
		vpath.Path(long): "260 characters long in " + root} {
		if !strings.Contains(got[p], word) {
			t.Errorf("%s: problems %q, want one saying %q", p, got[p], word)
		}
	}
	if r.WindowsPaths.Count != 4 {
		t.Errorf("windows paths = %+v, want the four above (not %s)", r.WindowsPaths, short)
	}
	if !r.Healthy() {
		t.Error("warnings about other systems made the vault unhealthy")
	}
}
