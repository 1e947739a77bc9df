package uiapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/uiapi"
)

// notesLines is a note of 40 lines; edited rewrites lines 5, 20 and 35 except the one
// of hunk skip (1 to 3).
func notesLines(skip int) string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		if (i == 5 && skip != 1) || (i == 20 && skip != 2) || (i == 35 && skip != 3) {
			fmt.Fprintf(&b, "Line %d, rewritten.\n", i)
			continue
		}
		fmt.Fprintf(&b, "Line %d.\n", i)
	}
	return b.String()
}

// TestGitUndoHunks: the window's Undo of a hunk puts back that hunk only, by
// compare-and-swap on the version its diff was made from; a note saved since is left
// alone and its diff comes back to be shown again.
func TestGitUndoHunks(t *testing.T) {
	dir := t.TempDir()
	original := notesLines(1) // line 5 is committed as "Line 5." too
	original = strings.Replace(original, "Line 20, rewritten.\n", "Line 20.\n", 1)
	original = strings.Replace(original, "Line 35, rewritten.\n", "Line 35.\n", 1)
	writeFiles(t, dir, map[string]string{".gitignore": ".memotree/\n", "draft.md": original})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "draft")
	writeFiles(t, dir, map[string]string{"draft.md": notesLines(0)})
	api, _ := openAPI(t, dir)

	d, err := api.GitDiff("v", "draft.md", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 3 || !d.HunkUndo || d.Base == "" {
		t.Fatalf("diff: %d hunks, undo %v, base %q", len(d.Hunks), d.HunkUndo, d.Base)
	}
	res, err := api.GitUndoHunks("v", uiapi.GitHunkUndo{Path: "draft.md", Hunks: []int{2}, Base: d.Base})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "draft.md"); got != notesLines(2) {
		t.Errorf("after undoing hunk 2 (-want +got):\n%s", cmp.Diff(notesLines(2), got))
	}
	if res.Stale || len(res.Undone) != 1 || res.Undone[0].Number != 2 || len(res.Diff.Hunks) != 2 {
		t.Errorf("result: stale %v, undone %v, %d hunks left", res.Stale, res.Undone, len(res.Diff.Hunks))
	}
	if got := strings.Count(git(t, dir, "diff", "--", "draft.md"), "\n@@"); got != 2 {
		t.Errorf("git diff shows %d hunks, want 2", got)
	}

	// Saved by another program since the diff: nothing written, the diff of now.
	saved := notesLines(2) + "Typed in Obsidian.\n"
	writeFiles(t, dir, map[string]string{"draft.md": saved})
	old := res.Diff.Base
	res, err = api.GitUndoHunks("v", uiapi.GitHunkUndo{Path: "draft.md", Hunks: []int{1}, Base: old})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "draft.md"); !res.Stale || got != saved || res.Diff.Base == old || len(res.Diff.Hunks) != 2 {
		t.Errorf("a stale undo: stale %v, base %q (was %q), %d hunks, file:\n%s", res.Stale, res.Diff.Base, old, len(res.Diff.Hunks), got)
	}

	b, err := api.GitBlame("v", "draft.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) != 41 || b.Lines[4].Commit != "" || b.Lines[0].Commit == "" || b.Pending == nil || b.Pending.Actor != "external" {
		t.Errorf("blame: %d lines, line 5 %+v, line 1 %+v, pending %+v", len(b.Lines), b.Lines[4], b.Lines[0], b.Pending)
	}
	c := b.Commits[b.Lines[0].Commit]
	if c.Actor != "Test" || c.Summary != "draft" || c.Path != "draft.md" {
		t.Errorf("line 1's commit: %+v", c)
	}
	cd, err := api.GitCommitDiff("v", b.Lines[0].Commit, "draft.md", "")
	if err != nil || cd.Added != 40 || len(cd.Hunks) != 1 {
		t.Errorf("the commit's diff: +%d, %d hunks, %v", cd.Added, len(cd.Hunks), err)
	}
}
