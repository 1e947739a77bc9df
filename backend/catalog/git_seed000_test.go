package catalog_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/tool"
)

// statusByPath indexes git_status's changes by path.
func statusByPath(t *testing.T, st map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	list, _ := st["changes"].([]any)
	for _, c := range list {
		m := c.(map[string]any)
		out[m["path"].(string)] = m
	}
	return out
}

// gitMoves lists what `git status` calls renames once every change is staged, as
// "old -> new".
func gitMoves(t *testing.T, dir string) []string {
	t.Helper()
	entGit(t, dir, "add", "-A")
	var out []string
	fields := strings.Split(entGit(t, dir, "status", "--porcelain", "-z"), "\x00")
	for i := 0; i < len(fields); i++ {
		if f := fields[i]; strings.HasPrefix(f, "R") && i+1 < len(fields) {
			out = append(out, fields[i+1]+" -> "+f[3:]) // -z writes the new path, then the old
			i++
		}
	}
	sort.Strings(out)
	return out
}

// TestGitStatusSeed000 checks git_status's seed 000 fields on every kind of change —
// edited, moved by rename_entity, moved and edited outside MemoTree, deleted, created,
// a binary file — and that the moves are those git itself finds (git status after
// git add -A), each one change rather than a deletion and a new file.
func TestGitStatusSeed000(t *testing.T) {
	h := gitHarness(t)
	before := time.Now().Add(-time.Second)
	ada := strings.Replace(entFixture["people/Ada Lovelace.md"], "tags: [history]", "tags: [history, math]", 1)
	entWrite(t, filepath.Join(h.dir, "people", "Ada Lovelace.md"), strings.Replace(ada, "born in 1816\n", "born in 1815\nin London\n", 1))
	h.ok("rename_entity", `{"old_name":"Engine","new_name":"machines/Analytical Engine"}`)
	entWrite(t, filepath.Join(h.dir, "archive", "Plain.md"), entFixture["notes/Plain.md"]+"Moved by hand.\n")
	if err := os.Remove(filepath.Join(h.dir, "notes", "Plain.md")); err != nil {
		t.Fatal(err)
	}
	h.ok("delete_entities", `{"entity_names":["meta"]}`)
	h.ok("create_entity", `{"entity_name":"ideas/Idea","title":"A new idea","tags":["draft"],"content":"one\ntwo\n"}`)
	entWrite(t, filepath.Join(h.dir, "pic.png"), "\x89PNG\x00\x01\x02")

	st := h.ok("git_status", `{}`)
	got := statusByPath(t, st)
	for path, want := range map[string]struct{ typ, title, oldPath, summary string }{
		// The rename rewrote Ada's link to the Engine: one more line changed.
		"people/Ada Lovelace.md": {"Modified", "Ada Lovelace", "", "body +3 -2 lines; tags added math"},
		// rename_entity keeps the old name as an alias.
		"machines/Analytical Engine.md": {"Moved", "Analytical Engine", "Engine.md", `moved from Engine.md; title "Engine" → "Analytical Engine"; properties changed: aliases`},
		"archive/Plain.md":              {"Moved", "Plain", "notes/Plain.md", "moved from notes/Plain.md; body +1 -0 lines"},
		"meta.md":                       {"Deleted", "meta", "", `deleted note "meta" (10 lines)`},
		"ideas/Idea.md":                 {"Added", "A new idea", "", `new note "A new idea", 10 lines, tags draft`},
		"pic.png":                       {"Added", "pic.png", "", "new binary file, 7 bytes"},
		"journey.yaml":                  {"Added", "journey.yaml", "", "new file, "},
		"notes/Plain.md":                {}, // moved: not a deletion too
		"people/Charles Babbage.md":     {}, // no link to the Engine
	} {
		c, ok := got[path]
		if want.typ == "" {
			if ok {
				t.Errorf("%s is listed: %v", path, c)
			}
			continue
		}
		if !ok {
			t.Errorf("%s is not listed; git_status: %v", path, st["changes"])
			continue
		}
		if c["change_type"] != want.typ || c["title"] != want.title || (c["old_path"] != nil) != (want.oldPath != "") ||
			want.oldPath != "" && c["old_path"] != want.oldPath || !strings.HasPrefix(c["summary"].(string), want.summary) {
			t.Errorf("%s = %v, want change_type %s, title %q, old_path %q, summary starting %q", path, c, want.typ, want.title, want.oldPath, want.summary)
		}
		at, err := time.Parse(time.RFC3339, stringOf(c["timestamp"]))
		if err != nil || at.Before(before.Truncate(time.Second)) || at.After(time.Now().Add(time.Second)) {
			t.Errorf("%s: timestamp %v (%v), want about now", path, c["timestamp"], err)
		}
	}
	var ours []string
	for p, c := range got {
		if c["change_type"] == "Moved" {
			ours = append(ours, c["old_path"].(string)+" -> "+p)
		}
	}
	sort.Strings(ours)
	if d := cmp.Diff(gitMoves(t, h.dir), ours); d != "" {
		t.Errorf("moves (-git status +git_status):\n%s", d)
	}
	// Staged by git, they are the same changes (git's state of a new file is "added"
	// now rather than "untracked").
	after := statusByPath(t, h.ok("git_status", `{}`))
	for _, m := range []map[string]map[string]any{got, after} {
		for _, c := range m {
			delete(c, "state")
		}
	}
	if d := cmp.Diff(got, after); d != "" {
		t.Errorf("git_status after git add -A (-before +after):\n%s", d)
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// TestGitDiffSeed000 checks git_diff's structured change of a note (title, content,
// tags, relations, other properties) against the note as git has it in HEAD, and its
// include_content_diff and include_relation_changes switches.
func TestGitDiffSeed000(t *testing.T) {
	h := gitHarness(t)
	path := "people/Ada Lovelace.md"
	edited := strings.Replace(entFixture[path], "entity type: person\n", "title: Countess of Lovelace\nentity type: mathematician\n", 1)
	edited = strings.Replace(edited, "tags: [history]", "tags: [history, math]", 1)
	edited = strings.Replace(edited, `relation to: "[[Charles Babbage]]"`, `relation to: "[[Mary Somerville]]"`, 1)
	edited = strings.Replace(edited, "born in 1816\n", "born in 1815\n\nA #poet of science.\n", 1)
	entWrite(t, filepath.Join(h.dir, filepath.FromSlash(path)), edited)

	res := h.ok("git_diff", `{"entity_name":"Ada Lovelace"}`)
	files := res["files"].([]any)
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	f := files[0].(map[string]any)
	headBody := strings.SplitN(entGit(t, h.dir, "show", "HEAD:"+path), "---\n", 3)[2]
	newBody := strings.SplitN(edited, "---\n", 3)[2]
	numstat := strings.Fields(entGit(t, h.dir, "diff", "--numstat", "--", path))
	want := map[string]any{
		"entity": "people/Ada Lovelace", "change_type": "Modified", "lines_added": float64(atoi(t, numstat[0])), "lines_deleted": float64(atoi(t, numstat[1])),
		"title_change":   map[string]any{"old": "Ada Lovelace", "new": "Countess of Lovelace"},
		"tags_change":    map[string]any{"old": []any{"history"}, "new": []any{"history", "math", "poet"}, "added": []any{"math", "poet"}},
		"content_change": map[string]any{"lines_added": float64(3), "lines_deleted": float64(1), "old": headBody, "new": newBody},
		"relation_changes": []any{
			map[string]any{"change_type": "Added", "type": "collaborator of", "target": "Mary Somerville"},
			map[string]any{"change_type": "Deleted", "type": "collaborator of", "target": "Charles Babbage"},
		},
		"properties_changed": []any{"entity type"},
		// The front matter's hunk as the properties it changes, the body's as lines.
		"hunks": []any{
			map[string]any{"hunk": float64(1), "header": "@@ -1,11 +1,12 @@", "lines_added": float64(4), "lines_deleted": float64(3), "properties": []any{
				map[string]any{"key": "title", "new": "Countess of Lovelace"},
				map[string]any{"key": "entity type", "old": "person", "new": "mathematician"},
				map[string]any{"key": "relations", "old": `[{"relation to":"[[Charles Babbage]]","relation type":"collaborator of"}]`,
					"new": `[{"relation to":"[[Mary Somerville]]","relation type":"collaborator of"}]`},
				map[string]any{"key": "tags", "old": `["history"]`, "new": `["history","math"]`},
			}},
			map[string]any{"hunk": float64(2), "header": "@@ -14,4 +15,6 @@", "lines_added": float64(3), "lines_deleted": float64(1)},
		},
	}
	if d := cmp.Diff(want, f); d != "" {
		t.Errorf("git_diff's file (-want +got):\n%s", d)
	}
	if d, _ := res["diff"].(string); !strings.Contains(d, "+title: Countess of Lovelace\n") {
		t.Errorf("the unified diff is missing:\n%s", d)
	}
	lean := h.ok("git_diff", `{"entity_name":"Ada Lovelace","include_content_diff":false,"include_relation_changes":false}`)
	lf := lean["files"].([]any)[0].(map[string]any)
	if _, has := lean["diff"]; has {
		t.Error("include_content_diff false still gives the unified diff")
	}
	for _, k := range []string{"content_change", "relation_changes"} {
		if _, has := lf[k]; has {
			t.Errorf("%s given though switched off: %v", k, lf)
		}
	}
	if _, has := lf["title_change"]; !has {
		t.Errorf("title_change is not a content or relation change and stays: %v", lf)
	}
	// A moved note names its old name; a new one has only new values.
	h.ok("create_entity", `{"entity_name":"Fresh","tags":["t"],"relations":[{"type":"about","to":"Engine"}],"content":"hello\n"}`)
	fresh := h.ok("git_diff", `{"entity_name":"Fresh"}`)["files"].([]any)[0].(map[string]any)
	if fresh["change_type"] != "Added" || fresh["title_change"].(map[string]any)["new"] != "Fresh" || len(fresh["relation_changes"].([]any)) != 1 {
		t.Errorf("a new note's change: %v", fresh)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// TestGitCommitSeed000 checks git_commit's author and tag_description against git:
// the author given signs the commit as author and git's identity as committer; a tag
// with a description is an annotated tag object carrying it; without an author the
// repository's identity is both.
func TestGitCommitSeed000(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "# Engine\n\nrevised\n")
	entWrite(t, filepath.Join(h.dir, "notes", "Plain.md"), "plain, revised\n")
	res := h.ok("git_commit", `{"message":"Revise the Engine","entity_names":["Engine"],"author":{"name":"Ada Lovelace","email":"ada@example.com"},
		"create_tag":true,"tag_name":"v1.2.0","tag_description":"The engine, revised.\n\nSecond paragraph."}`)
	id := vaulttest.TestName + " <" + vaulttest.TestEmail + ">"
	if got := entGit(t, h.dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>"); got != "Ada Lovelace <ada@example.com>|"+id+"\n" {
		t.Errorf("author|committer = %q", got)
	}
	if d := cmp.Diff(map[string]any{"name": "Ada Lovelace", "email": "ada@example.com"}, res["author"]); d != "" {
		t.Errorf("result's author (-want +got):\n%s", d)
	}
	if res["tag_annotated"] != true || res["tag"] != "v1.2.0" {
		t.Errorf("result: %v", res)
	}
	if got := entGit(t, h.dir, "cat-file", "-t", "v1.2.0"); got != "tag\n" {
		t.Errorf("git cat-file -t = %q, want an annotated tag", got)
	}
	if got := entGit(t, h.dir, "tag", "-n9", "-l", "v1.2.0"); !strings.Contains(got, "The engine, revised.") || !strings.Contains(got, "Second paragraph.") {
		t.Errorf("git tag -n = %q", got)
	}
	if got := entGit(t, h.dir, "for-each-ref", "--format=%(taggername) <%(taggeremail:trim)>", "refs/tags/v1.2.0"); got != id+"\n" {
		t.Errorf("tagger = %q, want the committer %q", got, id)
	}
	h.ok("git_commit", `{"message":"Plain","tag_name":"light"}`)
	if got := entGit(t, h.dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>"); got != id+"|"+id+"\n" {
		t.Errorf("without an author: %q, want the repository's identity twice", got)
	}
	if got := entGit(t, h.dir, "cat-file", "-t", "light"); got != "commit\n" {
		t.Errorf("a tag without a description is %q, want lightweight", got)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
}

// TestGitCommitAuthorTimestamp: seed 000's CommitAuthor.Timestamp dates the author as
// given, in its own time zone, while the committer's date is the time of the commit.
func TestGitCommitAuthorTimestamp(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "# Engine\n\nrevised\n")
	before := time.Now().Add(-time.Second).Truncate(time.Second)
	res := h.ok("git_commit", `{"message":"Revise the Engine","author":{"name":"Ada Lovelace","email":"ada@example.com","timestamp":"2025-07-27T10:00:00+08:00"}}`)
	if got := entGit(t, h.dir, "log", "-1", "--format=%an|%aI"); got != "Ada Lovelace|2025-07-27T10:00:00+08:00\n" {
		t.Errorf("author|author date = %q, want the timestamp given", got)
	}
	cd, err := time.Parse(time.RFC3339, strings.TrimSpace(entGit(t, h.dir, "log", "-1", "--format=%cI")))
	if err != nil {
		t.Fatal(err)
	}
	if cd.Before(before) || cd.After(time.Now().Add(time.Second)) {
		t.Errorf("committer date %s, want the time of the commit (after %s)", cd, before)
	}
	want := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "timestamp": "2025-07-27T10:00:00+08:00"}
	if d := cmp.Diff(want, res["author"]); d != "" {
		t.Errorf("result's author (-want +got):\n%s", d)
	}
	entGit(t, h.dir, "fsck", "--strict", "--no-progress")
}

// TestGitSeed000BadInput: seed 000's parameters with wrong types or values get a clear
// error naming what is expected, and nothing is committed or tagged.
func TestGitSeed000BadInput(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "# Engine\n\nrevised\n")
	entGit(t, h.dir, "tag", "-a", "-m", "made by git", "taken")
	head := entGit(t, h.dir, "rev-parse", "HEAD")
	tags := entGit(t, h.dir, "tag", "-l")
	for _, tc := range []struct {
		tool, args string
		code       tool.Code
		says       []string
	}{
		{"git_diff", `{"include_content_diff":"yes"}`, tool.CodeInvalidArguments, []string{"include_content_diff", "boolean"}},
		{"git_diff", `{"include_relation_changes":1}`, tool.CodeInvalidArguments, []string{"include_relation_changes", "boolean"}},
		{"git_diff", `{"node_id":"Engine"}`, tool.CodeInvalidArguments, []string{"node_id", "entity_name"}},
		{"git_commit", `{"message":"m","author":"Ada <ada@example.com>"}`, tool.CodeInvalidArguments, []string{"author", "object"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada"}}`, tool.CodeInvalidArguments, []string{"author.email", "missing"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada","email":""}}`, tool.CodeInvalidArguments, []string{"invalid author", "no email"}},
		{"git_commit", `{"message":"m","author":{"name":"","email":"ada@example.com"}}`, tool.CodeInvalidArguments, []string{"invalid author", "no name"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada","email":"ada at example"}}`, tool.CodeInvalidArguments, []string{"not an email address", "ada@example.com"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada","email":"ada@example.com","timestamp":"2020"}}`, tool.CodeInvalidArguments, []string{"timestamp", "RFC 3339"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada","email":"ada@example.com","timestamp":"1969-12-31T23:59:59Z"}}`, tool.CodeInvalidArguments, []string{"invalid author", "before 1970"}},
		{"git_commit", `{"message":"m","author":{"name":"Ada","email":"ada@example.com","date":"2020-01-01T00:00:00Z"}}`, tool.CodeInvalidArguments, []string{"date", "unknown"}},
		{"git_commit", `{"message":"m","tag_name":"v1","tag_description":7}`, tool.CodeInvalidArguments, []string{"tag_description", "string"}},
		{"git_commit", `{"message":"m","tag_name":"v1","create_tag":"true"}`, tool.CodeInvalidArguments, []string{"create_tag", "boolean"}},
		{"git_commit", `{"message":"m","create_tag":true}`, tool.CodeInvalidArguments, []string{"create_tag", "tag_name"}},
		{"git_commit", `{"message":"m","create_tag":false,"tag_name":"v1"}`, tool.CodeInvalidArguments, []string{"create_tag is false", "tag_name"}},
		{"git_commit", `{"message":"m","tag_description":"about"}`, tool.CodeInvalidArguments, []string{"tag_description", "tag_name"}},
		{"git_commit", `{"message":"m","tag_name":"bad..name","tag_description":"x"}`, tool.CodeInvalidArguments, []string{"bad..name", "not a valid git tag name"}},
		{"git_commit", `{"message":"m","tag_name":"-rf"}`, tool.CodeInvalidArguments, []string{"-rf", "not a valid git tag name"}},
		{"git_commit", `{"message":"m","tag_name":"taken","tag_description":"mine"}`, tool.CodeAlreadyExists, []string{"taken", "exists"}},
		{"git_commit", `{"message":"m","node_ids":["Engine"]}`, tool.CodeInvalidArguments, []string{"node_ids", "entity_names"}},
	} {
		res := h.call(tc.tool, tc.args)
		if res.ErrorCode != tc.code {
			t.Errorf("%s(%s) = %s %q, want %s", tc.tool, tc.args, res.ErrorCode, res.Message, tc.code)
			continue
		}
		for _, s := range tc.says {
			if !strings.Contains(res.Message, s) {
				t.Errorf("%s(%s): %q does not say %q", tc.tool, tc.args, res.Message, s)
			}
		}
	}
	if entGit(t, h.dir, "rev-parse", "HEAD") != head || entGit(t, h.dir, "tag", "-l") != tags {
		t.Error("a refused call committed or tagged")
	}
	if !strings.Contains(entGit(t, h.dir, "tag", "-n1", "-l", "taken"), "made by git") {
		t.Error("the existing tag changed")
	}
	if got := gitPorcelain(t, h.dir); !contains(got, " M Engine.md") {
		t.Errorf("the pending change is gone: %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestGitStatusMoveFromTheJourney: a note moved by move_entity and then rewritten
// from top to bottom is still one Moved change, because the journey recorded the move,
// though git, comparing contents, sees a deletion and a new note; committed, both
// paths go in one commit.
func TestGitStatusMoveFromTheJourney(t *testing.T) {
	h := gitHarness(t)
	h.ok("move_entity", `{"entity_name":"notes/Plain","folder":"archive"}`)
	h.ok("update_entity", `{"entity_name":"archive/Plain","mode":"replace","content":"Entirely different words now, nothing of what it said before.\nA second line.\n"}`)
	c := statusByPath(t, h.ok("git_status", `{}`))["archive/Plain.md"]
	if c["change_type"] != "Moved" || c["old_path"] != "notes/Plain.md" || !strings.HasPrefix(stringOf(c["summary"]), "moved from notes/Plain.md; body +") {
		t.Errorf("archive/Plain.md = %v, want Moved from notes/Plain.md", c)
	}
	if moves := gitMoves(t, h.dir); len(moves) != 0 {
		t.Errorf("git pairs them itself (%q): the test proves nothing", moves)
	}
	res := h.call("git_checkout", `{"entity_names":["archive/Plain"],"confirmed":false}`)
	if res.ErrorCode != tool.CodeConfirmationRequired || !strings.Contains(res.Message, "notes/Plain comes back and archive/Plain goes, losing the 5 added and 1 deleted lines") {
		t.Errorf("discarding the move would: %s", res.Message)
	}
	h.ok("git_commit", `{"message":"Archive Plain","entity_names":["archive/Plain"]}`)
	if got := entGit(t, h.dir, "show", "--name-status", "--format=", "HEAD"); got != "A\tarchive/Plain.md\nD\tnotes/Plain.md\n" {
		t.Errorf("the commit holds %q, want both paths of the move", got)
	}
}

// TestGitDiffContentBudget: each body content_change carries is clipped at 8,000
// bytes, and after 60,000 bytes in all the notes left get their line counts only, with
// a warning saying how to see the rest.
func TestGitDiffContentBudget(t *testing.T) {
	h := gitHarness(t)
	body := strings.Repeat("a line of a long note, long enough to fill a budget quickly\n", 200) // 12,000 bytes
	for i := range 10 {
		entWrite(t, filepath.Join(h.dir, "long", string(rune('a'+i))+".md"), body)
	}
	res := h.call("git_diff", `{}`)
	if res.IsError() {
		t.Fatal(res.Message)
	}
	data := entData(t, res)
	full, countsOnly := 0, 0
	for _, f := range data["files"].([]any) {
		cc, ok := f.(map[string]any)["content_change"].(map[string]any)
		if !ok {
			continue
		}
		if n := len(stringOf(cc["new"])); n > 8000 || cc["clipped"] != true {
			t.Errorf("a 12,000-byte body gives %d bytes, clipped=%v", n, cc["clipped"])
		}
		if cc["new"] == nil {
			countsOnly++
		} else {
			full++
		}
		if cc["lines_added"] != float64(200) {
			t.Errorf("lines_added = %v", cc["lines_added"])
		}
	}
	if full == 0 || countsOnly == 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "call git_diff with one entity_name") {
		t.Errorf("%d bodies given, %d counts only; warnings %q", full, countsOnly, res.Warnings)
	}
}

// TestGitCommitAllLeavesOutBackslashNames: git_commit without entity_names commits
// every pending change but a file whose name holds a backslash (made outside
// MemoTree), and warns naming it; the file stays untracked.
func TestGitCommitAllLeavesOutBackslashNames(t *testing.T) {
	h := gitHarness(t)
	entWrite(t, filepath.Join(h.dir, "Engine.md"), "# Engine\n\nrevised\n")
	entWrite(t, filepath.Join(h.dir, `made\outside.md`), "# Outside\n")
	res := h.call("git_commit", `{"message":"All"}`)
	if res.Status != tool.StatusSuccess || !strings.Contains(res.Message, "committed 1 note") {
		t.Fatalf("git_commit = %s %s: %s", res.Status, res.ErrorCode, res.Message)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `made\outside.md holds a backslash`) {
		t.Fatalf("warnings = %q, want one naming the file", res.Warnings)
	}
	if got := entGit(t, h.dir, "status", "--porcelain"); got != `?? "made\\outside.md"`+"\n" {
		t.Fatalf("git status after the commit: %q", got)
	}
}
