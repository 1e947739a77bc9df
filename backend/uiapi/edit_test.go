package uiapi_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/uiapi"
)

func TestSaveNoteCompareAndSwap(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n\nfirst\n"})
	api, _ := openAPI(t, dir)
	v, err := api.Note("v", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	res, err := api.SaveNote("v", "a.md", "# A\n\nsecond [[B]]\n", v.Hash)
	if err != nil || res.Conflict || res.Hash == "" || res.Hash == v.Hash {
		t.Fatalf("save on the loaded version: %+v, %v", res, err)
	}
	if got := readFile(t, dir, "a.md"); got != "# A\n\nsecond [[B]]\n" {
		t.Fatalf("on disk after save: %q", got)
	}
	after, err := api.Note("v", "a.md")
	if err != nil || len(after.Links) != 1 || after.Links[0].Target != "B" {
		t.Errorf("the graph did not follow the save: %+v, %v", after.Links, err)
	}

	// Someone else writes; a save from the old version must not overwrite it.
	writeFiles(t, dir, map[string]string{"a.md": "# A\n\nfrom Obsidian\n"})
	res2, err := api.SaveNote("v", "a.md", "# A\n\nmine\n", res.Hash)
	if err != nil || !res2.Conflict || res2.Current != "# A\n\nfrom Obsidian\n" {
		t.Fatalf("stale save: %+v, %v", res2, err)
	}
	if got := readFile(t, dir, "a.md"); got != "# A\n\nfrom Obsidian\n" {
		t.Fatalf("a stale save changed the file: %q", got)
	}
	// Overwriting on purpose is a save against the version now on disk.
	if res3, err := api.SaveNote("v", "a.md", "# A\n\nmine\n", res2.Hash); err != nil || res3.Conflict {
		t.Fatalf("overwrite: %+v, %v", res3, err)
	}

	// Deleted meanwhile.
	os.Remove(filepath.Join(dir, "a.md"))
	if res4, err := api.SaveNote("v", "a.md", "x", res2.Hash); err != nil || !res4.Conflict || !res4.Deleted {
		t.Errorf("save of a deleted note: %+v, %v", res4, err)
	}
	// A new note: created only if absent.
	if res5, err := api.SaveNote("v", "new/N.md", "# N\n", ""); err != nil || res5.Conflict {
		t.Errorf("create: %+v, %v", res5, err)
	}
	if res6, err := api.SaveNote("v", "new/N.md", "# other\n", ""); err != nil || !res6.Conflict {
		t.Errorf("a create over an existing note: %+v, %v", res6, err)
	}
}

func TestSaveNoteRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	api, _ := openAPI(t, dir)
	for _, tc := range []struct{ path, content, want string }{
		{"../escape.md", "x", "invalid"},
		{".git/config.md", "x", "invalid"},
		{"image.png", "x", "only Markdown"},
		{"a.md", "\xff\xfe", "UTF-8"},
		// New notes get the tools' name checks: twins and names some systems cannot hold.
		{"A.md", "x", "differs only in case"},
		{"CON.md", "x", "reserved on Windows"},
		{"notes/Trailing .md", "x", "start or end with a space"},
		{"Dot..md", "x", "end with a dot"},
		{strings.Repeat("n", 260) + ".md", "x", "bytes long"},
		// Names git or Windows cannot hold, each refused with what is wrong.
		{".GIT/x.md", "x", "folders named .git"},
		{".Obsidian/x.md", "x", "keep for themselves"},
		{"d2/git~1/z.md", "x", "folders named .git"},
		{"ideas/what?.md", "x", `"?"`},
		{"a|b.md", "x", `"|"`},
		{`notes\x.md`, "x", "backslash"},
		{"tab\there.md", "x", "control character"},
		{"nul.txt.md", "x", "reserved on Windows"},
		// Characters a person cannot see, or sees as something else, each named.
		{"invoice\u202efdp.exe.md", "x", "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"a\u0085b.md", "x", "U+0085 NEXT LINE"},
		{"notes/a\u200bb.md", "x", "U+200B ZERO WIDTH SPACE"},
		{"\ufeffnote.md", "x", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
	} {
		_, err := api.SaveNote("v", tc.path, tc.content, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SaveNote(%q) = %v, want an error saying %q", tc.path, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.md")); !os.IsNotExist(err) {
		t.Error("a path escaped the vault")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "a.md" && e.Name() != ".memotree" {
			t.Errorf("a refused save left %s", e.Name())
		}
	}
	// Saving an existing note under its own name still works.
	v, err := api.Note("v", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.SaveNote("v", "a.md", "# A\n\nmore\n", v.Hash); err != nil {
		t.Errorf("saving a.md: %v", err)
	}
}

// A note whose existing name holds a character no new name may (U+202E, U+0085,
// U+200B) is listed, opened and saved as any other: only creating such a name is
// refused.
func TestSaveNoteKeepsExistingHiddenNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"old\u202etxt.md", "a\u0085b.md", "zero\u200bwidth.md"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "# old\n"
	}
	writeFiles(t, dir, files)
	api, _ := openAPI(t, dir)
	list, err := api.Files("v")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !slices.Contains(list.Paths, n) {
			t.Errorf("Files does not list %q: %q", n, list.Paths)
		}
		v, err := api.Note("v", n)
		if err != nil {
			t.Errorf("Note(%q): %v", n, err)
			continue
		}
		if _, err := api.SaveNote("v", n, "# old\n\nmore\n", v.Hash); err != nil {
			t.Errorf("saving the existing %q: %v", n, err)
		}
		if got := readFile(t, dir, n); got != "# old\n\nmore\n" {
			t.Errorf("%q holds %q after the save", n, got)
		}
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSaveNoteHashIsTheNotesHash: the hash a save returns is the one the note then
// reads with, so the window recognises its own save coming back.
func TestSaveNoteHashIsTheNotesHash(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	api, _ := openAPI(t, dir)
	v, err := api.Note("v", "a.md")
	if err != nil {
		t.Fatal(err)
	}
	res, err := api.SaveNote("v", "a.md", "# A\n\nnew\n", v.Hash)
	if err != nil {
		t.Fatal(err)
	}
	again, err := api.Note("v", "a.md")
	if err != nil || again.Hash != res.Hash {
		t.Fatalf("saved with hash %q, reads with %q (%v)", res.Hash, again.Hash, err)
	}
}

// TestSaveNoteRefusesAReadOnlyNote: the editor's save of a note whose permissions
// allow no writing (chmod 444) is refused with an error saying so; the note and its
// mode stay.
func TestSaveNoteRefusesAReadOnlyNote(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"locked.md": "# Locked\n"})
	if err := os.Chmod(filepath.Join(dir, "locked.md"), 0o444); err != nil {
		t.Fatal(err)
	}
	api, _ := openAPI(t, dir)
	n, err := api.Note("v", "locked.md")
	if err != nil {
		t.Fatal(err)
	}
	_, err = api.SaveNote("v", "locked.md", "# Changed\n", n.Hash)
	if err == nil || !strings.Contains(err.Error(), "read-only note") {
		t.Errorf("save of a read-only note: %v", err)
	}
	if got := readFile(t, dir, "locked.md"); got != "# Locked\n" {
		t.Errorf("locked.md = %q", got)
	}
	if st, _ := os.Stat(filepath.Join(dir, "locked.md")); st.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", st.Mode())
	}
}

// TestSaveNoteSizeLimit: SaveNote writes a note of uiapi.MaxSaveBytes and refuses
// one byte more, writing nothing.
func TestSaveNoteSizeLimit(t *testing.T) {
	dir := t.TempDir()
	api, _ := openAPI(t, dir)
	if _, err := api.SaveNote("v", "full.md", strings.Repeat("x", uiapi.MaxSaveBytes), ""); err != nil {
		t.Fatalf("a note of the limit: %v", err)
	}
	if _, err := api.SaveNote("v", "over.md", strings.Repeat("x", uiapi.MaxSaveBytes+1), ""); err == nil || !strings.Contains(err.Error(), "more than the window saves") {
		t.Errorf("one byte over the limit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "over.md")); !os.IsNotExist(err) {
		t.Errorf("over.md was written: %v", err)
	}
}

// TestSaveNoteKeepsTheNotesConventions: the window's editor hands back LF line
// breaks and no BOM (CodeMirror joins lines with LF); the note on disk keeps its BOM,
// its CRLF line endings and its missing final line break.
func TestSaveNoteKeepsTheNotesConventions(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.md": "\ufeff# C\r\n\r\nfirst"})
	api, _ := openAPI(t, dir)
	v, err := api.Note("v", "c.md")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.ReplaceAll(strings.TrimPrefix(v.Content, "\ufeff"), "\r\n", "\n") + "\nsecond\n"
	res, err := api.SaveNote("v", "c.md", edited, v.Hash)
	if err != nil || res.Conflict {
		t.Fatalf("save: %+v, %v", res, err)
	}
	if got := readFile(t, dir, "c.md"); got != "\ufeff# C\r\n\r\nfirst\r\nsecond" {
		t.Errorf("on disk after the save: %q", got)
	}
	if after, err := api.Note("v", "c.md"); err != nil || after.Hash != res.Hash {
		t.Errorf("the hash of the save (%s) is not the file's (%+v, %v)", res.Hash, after.Hash, err)
	}
}
