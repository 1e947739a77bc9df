package catalog_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/tool"
)

// draftLines is a committed note of 40 lines; draftEdited changes lines 5, 20 and 35
// (three hunks), dropEdit leaves out the edit of one of them.
func draftLines() []string {
	out := make([]string, 40)
	for i := range out {
		out[i] = fmt.Sprintf("Sentence %d of the draft.\n", i+1)
	}
	return out
}

func draftEdited(skip int) string {
	lines := draftLines()
	for n, at := range []int{5, 20, 35} {
		if n+1 != skip {
			lines[at-1] = fmt.Sprintf("Sentence %d of the draft, as the agent rewrote it.\n", at)
		}
	}
	return strings.Join(lines, "")
}

// gitDiffHunks returns the hunks of `git diff` of one file, each header (without
// git's function context) and lines.
func gitDiffHunks(t *testing.T, dir, path string) []string {
	t.Helper()
	var hunks []string
	for _, l := range strings.SplitAfter(entGit(t, dir, "diff", "-U3", "--no-color", "--", path), "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			hunks = append(hunks, l[:strings.LastIndex(l, "@@")+2]+"\n")
		case len(hunks) > 0 && l != "":
			hunks[len(hunks)-1] += l
		}
	}
	return hunks
}

// TestGitToolsHunks: git_diff numbers a note's hunks as the unified diff shows them,
// git_checkout discards one hunk (a dry run first), and git diff afterwards shows the
// others exactly as before; notes that are new or binary are discarded whole only.
func TestGitToolsHunks(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "ideas", "Draft.md"), strings.Join(draftLines(), ""))
	entWrite(t, filepath.Join(h.dir, "attachments", "pic.png"), "\x89PNG\x00one")
	entGit(t, h.dir, "add", "-A")
	entGit(t, h.dir, "commit", "-q", "-m", "the draft")
	entWrite(t, filepath.Join(h.dir, "ideas", "Draft.md"), draftEdited(0))
	// Another size: a rewrite of the same size within the file system's timestamp
	// granularity is git's racy case, which MemoTree's index splice does not smudge.
	entWrite(t, filepath.Join(h.dir, "attachments", "pic.png"), "\x89PNG\x00two, longer")
	entWrite(t, filepath.Join(h.dir, "ideas", "New.md"), "a new idea\n")

	var diff struct {
		Diff  string `json:"diff"`
		Files []struct {
			Entity string `json:"entity"`
			Hunks  []struct {
				Hunk   int    `json:"hunk"`
				Header string `json:"header"`
			} `json:"hunks"`
		} `json:"files"`
	}
	decode(t, h.ok("git_diff", `{}`), &diff)
	before := gitDiffHunks(t, h.dir, "ideas/Draft.md")
	hunks := map[string]int{}
	for _, f := range diff.Files {
		hunks[f.Entity] = len(f.Hunks)
		if f.Entity != "ideas/Draft" {
			continue
		}
		if len(f.Hunks) != len(before) {
			t.Fatalf("git_diff lists %d hunks of the draft, git diff %d", len(f.Hunks), len(before))
		}
		for i, hk := range f.Hunks {
			if hk.Hunk != i+1 || !strings.HasPrefix(before[i], hk.Header+"\n") || !strings.Contains(diff.Diff, hk.Header) {
				t.Errorf("hunk %d: %+v, git: %q", i+1, hk, before[i])
			}
		}
	}
	if d := cmp.Diff(map[string]int{"ideas/Draft": 3, "attachments/pic.png": 0, "ideas/New": 0}, hunks); d != "" {
		t.Errorf("hunks per file (-want +got):\n%s", d)
	}

	res := h.call("git_checkout", `{"hunks":{"ideas/Draft":[2]},"confirmed":false}`)
	if res.ErrorCode != tool.CodeConfirmationRequired || !strings.Contains(res.Message, "hunk 2") {
		t.Fatalf("unconfirmed = %s %s", res.ErrorCode, res.Message)
	}
	if !strings.Contains(string(res.JSON()), `-Sentence 20 of the draft.\n+Sentence 20 of the draft, as the agent rewrote it.`) {
		t.Errorf("the dry run does not show the hunk's lines: %s", res.JSON())
	}
	if h.read("ideas/Draft.md") != draftEdited(0) {
		t.Fatal("an unconfirmed checkout changed the draft")
	}
	h.ok("git_checkout", `{"hunks":{"ideas/Draft":[2]},"confirmed":true}`)
	if got := h.read("ideas/Draft.md"); got != draftEdited(2) {
		t.Errorf("the draft after discarding hunk 2 (-want +got):\n%s", cmp.Diff(draftEdited(2), got))
	}
	if d := cmp.Diff([]string{before[0], before[2]}, gitDiffHunks(t, h.dir, "ideas/Draft.md")); d != "" {
		t.Errorf("git diff after discarding hunk 2 (-want +got):\n%s", d)
	}

	for _, tc := range []struct{ args, code, says string }{
		{`{"hunks":{"ideas/New":[1]},"confirmed":true}`, string(tool.CodeInvalidArguments), "entity_names"},
		{`{"hunks":{"attachments/pic.png":[1]},"confirmed":true}`, string(tool.CodeInvalidArguments), "binary"},
		{`{"hunks":{"ideas/Draft":[3]},"confirmed":true}`, string(tool.CodeInvalidArguments), "numbered 1 to 2"},
		{`{"entity_names":["ideas/Draft"],"hunks":{"ideas/Draft":[1]},"confirmed":true}`, string(tool.CodeInvalidArguments), "one of them"},
		{`{"hunks":{"Engine":[1]},"confirmed":true}`, string(tool.CodeNoMatch), "no pending change"},
		{`{"confirmed":true}`, string(tool.CodeInvalidArguments), "empty"},
	} {
		res := h.call("git_checkout", tc.args)
		if string(res.ErrorCode) != tc.code || !strings.Contains(res.Message, tc.says) {
			t.Errorf("git_checkout(%s) = %s %q, want %s saying %q", tc.args, res.ErrorCode, res.Message, tc.code, tc.says)
		}
	}
	if got := h.read("ideas/Draft.md"); got != draftEdited(2) {
		t.Errorf("a refused checkout changed the draft:\n%s", got)
	}
	// Whole and by hunks in one call.
	h.ok("git_checkout", `{"entity_names":["ideas/New"],"hunks":{"ideas/Draft":[1,2]},"confirmed":true}`)
	if got := h.read("ideas/Draft.md"); got != strings.Join(draftLines(), "") {
		t.Errorf("the draft after discarding its last hunks:\n%s", got)
	}
	if d := cmp.Diff([]string{" M attachments/pic.png"}, gitPorcelain(t, h.dir)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
}

// TestGitToolsBlame: git_blame names for each line the commit git blame names, its
// author as actor for a commit made by git, the trailer's actor for one MemoTree
// made, and the change set for a line not committed.
func TestGitToolsBlame(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "ideas", "Draft.md"), strings.Join(draftLines(), ""))
	entGit(t, h.dir, "add", "-A")
	entGit(t, h.dir, "-c", "user.name=Ada", "commit", "-q", "-m", "the draft")
	h.ok("edit_entity", `{"entity_name":"ideas/Draft","old_content":"Sentence 5 of the draft.","new_content":"Sentence 5, by the agent."}`)
	h.ok("git_commit", `{"message":"the agent's sentence"}`)
	h.ok("edit_entity", `{"entity_name":"ideas/Draft","old_content":"Sentence 9 of the draft.","new_content":"Sentence 9, not committed."}`)

	var out struct {
		TotalLines int `json:"total_lines"`
		Lines      []struct {
			Line          int
			Text, Commit  string
			Author, Actor string
			Turn          string
		} `json:"lines"`
	}
	decode(t, h.ok("git_blame", `{"entity_name":"ideas/Draft","end_line":10}`), &out)
	if out.TotalLines != 40 || len(out.Lines) != 10 {
		t.Fatalf("blame lists %d of %d lines, want 10 of 40", len(out.Lines), out.TotalLines)
	}
	byLine := map[int]string{} // git blame's commit of each line
	for _, l := range strings.Split(entGit(t, h.dir, "blame", "--porcelain", "-M", "-w", "--", "ideas/Draft.md"), "\n") {
		var hash string
		var orig, final int
		if n, _ := fmt.Sscanf(l, "%40s %d %d", &hash, &orig, &final); n == 3 && len(hash) == 40 {
			if hash == strings.Repeat("0", 40) {
				hash = "" // not committed yet
			}
			byLine[final] = hash
		}
	}
	for _, l := range out.Lines {
		want := map[int]string{5: "agent", 9: "agent@t1"}[l.Line]
		if want == "" {
			want = "Ada"
		}
		if l.Actor != want {
			t.Errorf("line %d %q: actor %q, want %q", l.Line, l.Text, l.Actor, want)
		}
		if g := byLine[l.Line]; !strings.HasPrefix(g, l.Commit) || (g == "") != (l.Commit == "") {
			t.Errorf("line %d: commit %q, git blame's %q", l.Line, l.Commit, g)
		}
	}
	if out.Lines[4].Turn != "t1" {
		t.Errorf("line 5's turn = %q, want t1", out.Lines[4].Turn)
	}
	res := h.call("git_blame", `{"entity_name":"ideas/Draft","start_line":5,"end_line":2}`)
	if res.ErrorCode != tool.CodeInvalidArguments {
		t.Errorf("a reversed range = %s %s", res.ErrorCode, res.Message)
	}
}

// decode reads a tool's data into v.
func decode(t *testing.T, data map[string]any, v any) {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
