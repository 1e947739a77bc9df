package workspace_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/demo"
)

// namesVault copies the demo vault, adds files, and opens it for an agent that may
// write.
func namesVault(t *testing.T, files map[string]string) (string, *tool.Registry) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, openHostile(t, dir, tool.PermWrite)
}

// call runs tool name as the agent with args given as a Go value.
func call(t *testing.T, reg *tool.Registry, name string, args any) tool.Result {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Call(context.Background(), &tool.Call{Actor: tool.ActorAgent}, name, b)
	if err != nil || res.ErrorCode == tool.CodeInternal {
		t.Fatalf("%s(%s): %v %s", name, b, err, res.Message)
	}
	return res
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// Names that differ only in case are two files on Linux: each is reached by its exact
// name, a write to one never touches the other, a name matching both is ambiguous, and
// no tool creates a third spelling (it would clobber one of them on macOS or Windows).
func TestCaseFolding(t *testing.T) {
	dir, reg := namesVault(t, map[string]string{"Notes/A.md": "upper\n", "notes/a.md": "lower\n"})
	if r := call(t, reg, "update_entity", map[string]any{"entity_name": "Notes/A", "content": "UPPER", "mode": "replace"}); r.IsError() {
		t.Fatalf("update Notes/A: %s", r.Message)
	}
	if got := readFile(t, dir, "notes/a.md"); got != "lower\n" {
		t.Errorf("notes/a.md = %q after writing Notes/A", got)
	}
	if got := readFile(t, dir, "Notes/A.md"); !strings.Contains(got, "UPPER") {
		t.Errorf("Notes/A.md = %q", got)
	}
	r := call(t, reg, "update_entity", map[string]any{"entity_name": "NOTES/a", "content": "x", "mode": "replace"})
	if r.ErrorCode != tool.CodeAmbiguous || !strings.Contains(r.Message, "Notes/A") || !strings.Contains(r.Message, "notes/a") {
		t.Errorf("a name matching both: %s %s", r.ErrorCode, r.Message)
	}
	for _, args := range []map[string]any{
		{"tool": "create_entity", "entity_name": "NOTES/A", "content": "third"},
		{"tool": "create_entity", "entity_name": "welcome", "content": "third"},
		{"tool": "rename_entity", "old_name": "Welcome", "new_name": "notes/A"},
		{"tool": "add_entities", "entities": []any{map[string]any{"entity_name": "WELCOME"}}},
	} {
		name := args["tool"].(string)
		delete(args, "tool")
		r := call(t, reg, name, args)
		if !r.IsError() || !strings.Contains(r.Message, "case") && !strings.Contains(r.Message, "already exists") {
			t.Errorf("%s %v: %s %s, want already_exists naming the case", name, args, r.ErrorCode, r.Message)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "NOTES")); err == nil {
		t.Error("a third spelling of Notes was created")
	}
	if _, err := os.Stat(filepath.Join(dir, "welcome.md")); err == nil {
		t.Error("welcome.md was created beside Welcome.md")
	}
	// A new note in a folder spelled otherwise goes into the folder that exists, as on
	// macOS and Windows; a folder spelled exactly as given is kept.
	if r := call(t, reg, "create_entity", map[string]any{"entity_name": "PEOPLE/Katherine Johnson", "content": "x"}); r.IsError() || !strings.Contains(r.Message, "people/Katherine Johnson") {
		t.Errorf("create in PEOPLE/: %s %s", r.ErrorCode, r.Message)
	}
	if r := call(t, reg, "move_entity", map[string]any{"entity_name": "Welcome", "folder": "PEOPLE"}); r.IsError() || readFile(t, dir, "people/Welcome.md") == "<missing>" {
		t.Errorf("move into PEOPLE/: %s %s", r.ErrorCode, r.Message)
	}
	if r := call(t, reg, "create_entity", map[string]any{"entity_name": "notes/B", "content": "x"}); r.IsError() || readFile(t, dir, "notes/B.md") == "<missing>" {
		t.Errorf("create in notes/ beside Notes/: %s %s", r.ErrorCode, r.Message)
	}
	for _, d := range []string{"PEOPLE", "NOTES"} {
		if _, err := os.Stat(filepath.Join(dir, d)); err == nil {
			t.Errorf("a second spelling %s/ was created", d)
		}
	}
	// A rename that changes only the case works, and takes the links along.
	if r := call(t, reg, "rename_entity", map[string]any{"old_name": "Ada Lovelace", "new_name": "ADA LOVELACE"}); r.IsError() {
		t.Fatalf("case-only rename: %s", r.Message)
	}
	if readFile(t, dir, "people/ADA LOVELACE.md") == "<missing>" || readFile(t, dir, "people/Ada Lovelace.md") != "<missing>" {
		entries, _ := os.ReadDir(filepath.Join(dir, "people"))
		t.Errorf("after a case-only rename: %v", entries)
	}
}

// Unicode normalisation: "é" precomposed (NFC, what macOS keyboards and most models
// send) and decomposed (NFD, what macOS file systems used to store) name the same
// note. On Linux both can exist as two files; a name in either form finds the note,
// and when both exist the exact spelling wins.
func TestUnicodeNormalisation(t *testing.T) {
	const nfc, nfd = "Caf\u00e9", "Cafe\u0301"
	dir, reg := namesVault(t, map[string]string{nfd + ".md": "decomposed\n", "Ren\u00e9e.md": "precomposed\n"})
	for _, name := range []string{nfc, nfd, strings.ToUpper(nfc)} {
		r := call(t, reg, "read_entities", map[string]any{"entity_names": []string{name}})
		if r.IsError() || !strings.Contains(r.YAML(), "decomposed") {
			t.Errorf("read %+q: %s %s", name, r.ErrorCode, r.Message)
		}
	}
	if r := call(t, reg, "read_entities", map[string]any{"entity_names": []string{"Rene\u0301e"}}); r.IsError() || !strings.Contains(r.YAML(), "precomposed") {
		t.Errorf("read Renée sent decomposed: %s %s", r.ErrorCode, r.Message)
	}
	// A new note in the other form would look like a duplicate: refused.
	r := call(t, reg, "create_entity", map[string]any{"entity_name": nfc, "content": "twin"})
	if r.ErrorCode != tool.CodeAlreadyExists {
		t.Errorf("create %+q beside %+q: %s %s", nfc, nfd, r.ErrorCode, r.Message)
	}
	// Both forms on disk: each exact spelling reaches its own file, and a write to one
	// leaves the other alone.
	if err := os.WriteFile(filepath.Join(dir, nfc+".md"), []byte("precomposed twin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, reg = namesVault(t, nil)
	reg = openHostile(t, dir, tool.PermWrite)
	if r := call(t, reg, "update_entity", map[string]any{"entity_name": nfc, "content": "NEW", "mode": "replace"}); r.IsError() {
		t.Fatalf("update %+q: %s", nfc, r.Message)
	}
	if got := readFile(t, dir, nfd+".md"); got != "decomposed\n" {
		t.Errorf("the NFD note became %q after writing the NFC one", got)
	}
	if got := readFile(t, dir, nfc+".md"); !strings.Contains(got, "NEW") {
		t.Errorf("the NFC note = %q", got)
	}
}

// Names no file system (or no sync to Windows) can hold, or that would hide from a
// person, are refused with a message saying what to do, and nothing is written.
func TestUnholdableNames(t *testing.T) {
	dir, reg := namesVault(t, nil)
	before := snapshot(t, dir)
	tests := []struct{ name, words string }{
		{strings.Repeat("a", 256), "255 bytes"},
		{"people/" + strings.Repeat("é", 128), "255 bytes"},
		{strings.Repeat("folder/", 200) + "x", "longer than"},
		{"a\x00b", "cannot be used"},
		{"a\tb", "cannot be used"},
		{"bell\x07", "cannot be used"},
		{"CON", "reserved"},
		{"people/aux", "reserved"},
		{"com1.notes", "reserved"},
		{"LPT9", "reserved"},
		{"trailing.", "end with"},
		{"folder./x", "end with"},
		{"people/ x", "start or end with a space"},
		{"folder /x", "start or end with a space"},
		{"../up", "leaves the vault"},
		{"/etc/passwd", "absolute"},
		{".git/hooks/pre-commit", "folder"},
		// What git refuses in a tree, at any depth (its verify_path).
		{"dir/.git/x", "folders named .git"},
		{".GIT/y", "folders named .git"},
		{"d2/git~1/z", "folders named .git"},
		{"a/.Git./b", "folders named .git"},
		{"a/.g\u200cit/b", "folders named .git"},
		{"x/.gitmodules/y", "folders named .gitmodules"},
		{"x/GITMOD~1/y", "folders named .gitmodules"},
		// What Windows cannot hold, with the character named.
		{"ideas/what?", `"?"`},
		{"a:b", `":"`},
		{"a*b", `"*"`},
		{`say "hi"`, `"\""`},
		{"a<b", `"<"`},
		{"a>b", `">"`},
		{`notes\a`, "backslash"},
		{"CON.txt", "reserved"},
		// The folders MemoTree, Obsidian and the trash keep, in the spellings macOS
		// and Windows take for them (case, HFS+ ignorables).
		{".MEMOTREE/approvals/x", "keep for themselves"},
		{".Obsidian/plugins/x", "keep for themselves"},
		{".TRASH/x", "keep for themselves"},
		{".memo\u200ctree/x", "keep for themselves"},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"create_entity", map[string]any{"entity_name": tt.name, "content": "x"}},
			{"rename_entity", map[string]any{"old_name": "Welcome", "new_name": tt.name}},
		} {
			r := call(t, reg, c.tool, c.args)
			if r.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(r.Message, tt.words) {
				t.Errorf("%s %.40q: %s %s, want invalid_arguments saying %q", c.tool, tt.name, r.ErrorCode, r.Message, tt.words)
			}
		}
	}
	for _, f := range []struct{ folder, words string }{
		{"dir/.git", "folders named .git"}, {".GIT", "folders named .git"}, {"d2/git~1", "folders named .git"},
		{"x/.gitmodules", ".gitmodules"}, {"ideas?", `"?"`}, {"a:b", `":"`}, {"CON", "reserved"}, {"dot.", "end with"},
		{".MemoTree", "keep for themselves"}, {".OBSIDIAN", "keep for themselves"},
	} {
		r := call(t, reg, "move_entity", map[string]any{"entity_name": "Welcome", "folder": f.folder})
		if r.ErrorCode != tool.CodeInvalidArguments || !strings.Contains(r.Message, f.words) {
			t.Errorf("move_entity into %q: %s %s, want invalid_arguments saying %q", f.folder, r.ErrorCode, r.Message, f.words)
		}
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("a refused name changed the vault")
	}
	// Names at the limits are fine.
	for _, name := range []string{strings.Repeat("b", 252), "v1.2 notes", "a..b", "people/Ada.Lovelace", "console", "CON-call",
		".github/Workflows", "notes/.gitignore", "git~1x/a", "COM10", "what¿", "sub/.Obsidian/x", ".memotrees/x"} {
		if r := call(t, reg, "create_entity", map[string]any{"entity_name": name, "content": "x"}); r.IsError() {
			t.Errorf("create %.40q: %s", name, r.Message)
		}
	}
}

// TestWhatMemoTreeCreatesGitAccepts: every name the tools let a note take — odd but
// holdable ones, through create, rename and move — is committed by git_commit, and
// `git fsck --strict` finds nothing wrong and a clone checks every note out. The names
// git itself refuses in a tree (.git at any depth and in any spelling, .gitmodules'
// spellings) are refused before anything is written.
func TestWhatMemoTreeCreatesGitAccepts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: install it (apt-get install git)")
	}
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@invalid"} {
		t.Setenv(k, v)
	}
	dir, reg := namesVault(t, nil)
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@invalid"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "the demo vault")
	for _, name := range []string{".git/x", "dir/.git/x", ".GIT/y", "d2/git~1/z", "a/.Git./b", "a/.g\u200cit/b", "a/\u200e.GIT\u200f/b",
		"x/.gitmodules/y", "x/.GITMODULES /y", "x/gitmod~1/y", "x/gi7eba~9/y", "a/.git::$INDEX_ALLOCATION/b"} {
		if r := call(t, reg, "create_entity", map[string]any{"entity_name": name, "content": "x"}); r.ErrorCode != tool.CodeInvalidArguments {
			t.Errorf("create_entity %q: %s %s, want invalid_arguments", name, r.ErrorCode, r.Message)
		}
	}
	created := []string{"v1.2 notes", "a..b", "people/Ada.Lovelace", "CON-call", ".github/Workflows", "notes/.gitignore", "git~1x/a",
		"COM10", "what¿", "日本語/ノート", "emoji 🌱", "percent %20 sign", "semi;colon", "amp & and", "apostrophe's", "notes/.git.x",
		"x/.gitmodulesx/y", "gitmod~5/a", "trailing~1", strings.Repeat("b", 252)}
	for _, name := range created {
		if r := call(t, reg, "create_entity", map[string]any{"entity_name": name, "content": "# " + name}); r.IsError() {
			t.Errorf("create_entity %q: %s", name, r.Message)
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"rename_entity", map[string]any{"old_name": "v1.2 notes", "new_name": "v1.3 notes"}},
		{"move_entity", map[string]any{"entity_name": "a..b", "folder": ".github/more"}},
		{"move_entity", map[string]any{"entity_name": "what¿", "folder": "日本語"}},
	} {
		if r := call(t, reg, c.tool, c.args); r.IsError() {
			t.Errorf("%s %v: %s", c.tool, c.args, r.Message)
		}
	}
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorUser}, "git_commit", json.RawMessage(`{"message":"every name MemoTree makes"}`))
	if err != nil || res.IsError() {
		t.Fatalf("git_commit: %v %s", err, res.Message)
	}
	if out := git("fsck", "--strict", "--no-progress", "--no-dangling"); strings.TrimSpace(out) != "" {
		t.Errorf("git fsck --strict:\n%s", out)
	}
	if st := git("status", "--porcelain"); strings.TrimSpace(st) != "" {
		t.Errorf("pending after the commit:\n%s", st)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if out, err := exec.Command("git", "clone", "-q", dir, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	for _, name := range append(created[2:], "v1.3 notes", ".github/more/a..b", "日本語/what¿") {
		if name == "a..b" || name == "what¿" {
			continue
		}
		if _, err := os.Stat(filepath.Join(clone, filepath.FromSlash(name)+".md")); err != nil {
			t.Errorf("the clone lacks %s: %v", name, err)
		}
	}
}
