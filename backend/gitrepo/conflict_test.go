package gitrepo_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// gitPullConflict commits an edit of the same line of name in a (pushed) and in b,
// then runs git's own pull in b, which stops on the conflict.
func gitPullConflict(t *testing.T, a, b, name, old, fromA, fromB string) {
	t.Helper()
	edit(t, a, name, old, fromA)
	run(t, a, "commit", "-qam", "A's edit")
	run(t, a, "push", "-q", "origin", "main")
	edit(t, b, name, old, fromB)
	run(t, b, "commit", "-qam", "B's edit")
	if out, err := tryGit(b, "-c", "pull.rebase=false", "pull", "-q", "origin", "main"); err == nil {
		t.Fatalf("git pull met no conflict:\n%s", out)
	}
}

// assertMergeCommitted checks that dir's HEAD is a merge of two parents that git
// lists and accepts, with nothing pending and no merge left waiting.
func assertMergeCommitted(t *testing.T, dir string) {
	t.Helper()
	if parents := strings.Fields(run(t, dir, "rev-list", "--parents", "-1", "HEAD")); len(parents) != 3 {
		t.Errorf("HEAD's parents = %v, want two", parents[1:])
	}
	if merges := lines(run(t, dir, "log", "--merges", "--format=%H")); len(merges) == 0 || merges[0] == "" {
		t.Error("git log --merges lists no merge")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "MERGE_HEAD")); !os.IsNotExist(err) {
		t.Error("MERGE_HEAD left after the commit")
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after the merge = %q", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestGitPullConflictIsConflictedNotDeleted: after git's own pull stops on a conflict
// (UU), the note is conflicted (it was reported deleted), a commit is refused naming
// it (it recorded the markers), and once resolved the commit completes git's merge.
func TestGitPullConflictIsConflictedNotDeleted(t *testing.T) {
	_, a, b := clones(t)
	gitPullConflict(t, a, b, "r.md", "five", "five from A", "five from B")
	if d := cmp.Diff([]string{"UU r.md"}, porcelain(t, b)); d != "" {
		t.Fatalf("git status (-want +got):\n%s", d)
	}
	rb := open(t, b)
	ctx := t.Context()
	changes, err := rb.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]gitrepo.Change{{Path: "r.md", State: gitrepo.Conflicted}}, changes); d != "" {
		t.Errorf("Status (-want +got):\n%s", d)
	}
	before := head(t, b)
	for _, paths := range [][]vpath.Path{nil, {"r.md"}} {
		_, err := rb.Commit(ctx, gitrepo.CommitOptions{Message: "merge", Paths: paths})
		if !errors.Is(err, gitrepo.ErrUnresolved) || !strings.Contains(err.Error(), "r.md") {
			t.Errorf("Commit %v = %v, want ErrUnresolved naming r.md", paths, err)
		}
	}
	if head(t, b) != before {
		t.Fatal("a refused commit moved HEAD")
	}
	if op := rb.Operation(); op.Kind != "merge" || !strings.Contains(op.Message, "git merge --abort") {
		t.Errorf("Operation = %+v", op)
	}
	list, err := rb.Conflicts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]gitrepo.ConflictSummary{{Path: "r.md", Kind: gitrepo.ConflictContent, Hunks: 1}}, list); d != "" {
		t.Errorf("Conflicts (-want +got):\n%s", d)
	}
	d, err := rb.Conflict(ctx, "r.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 1 || d.Hunks[0].Ours != "five from B\n" || d.Hunks[0].Theirs != "five from A\n" || !d.Hunks[0].BaseKnown || d.Hunks[0].Base != "five\n" {
		t.Errorf("hunks = %+v", d.Hunks)
	}
	if !strings.Contains(d.Base.Text, "five\n") || !strings.Contains(d.Ours.Text, "five from B") || !strings.Contains(d.Theirs.Text, "five from A") {
		t.Errorf("sides: base %q, ours %q, theirs %q", d.Base.Text, d.Ours.Text, d.Theirs.Text)
	}
	res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "r.md", Take: gitrepo.TakeBoth, IfHash: vault.Hash(d.WorkingHash), Actor: "user", Op: "git_resolve"})
	if err != nil || !res.Resolved || !res.Written {
		t.Fatalf("Resolve = %+v, %v", res, err)
	}
	if got, want := read(t, b, "r.md"), strings.Replace(read(t, a, "r.md"), "five from A\n", "five from B\nfive from A\n", 1); got != want {
		t.Errorf("r.md resolved:\n%s\nwant:\n%s", got, want)
	}
	if d := cmp.Diff([]string{"M  r.md"}, porcelain(t, b)); d != "" {
		t.Errorf("git status after resolving (-want +got):\n%s", d)
	}
	commitAll(t, rb, "Merge A's edit")
	assertMergeCommitted(t, b)
}

// TestPullLeavesAMergeStateGitReads: MemoTree's own pull that meets a conflict
// leaves what git's leaves (MERGE_HEAD, the three stages, markers in the file), so
// git and MemoTree resolve it alike; the tool's hunks choose per conflict, and the
// commit completes the merge.
func TestPullLeavesAMergeStateGitReads(t *testing.T) {
	_, a, b := clones(t)
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()
	edit(t, a, "r.md", "two", "two from A")
	edit(t, a, "r.md", "six", "six from A")
	commitAll(t, ra, "A edits r")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	edit(t, b, "r.md", "two", "two from B")
	edit(t, b, "r.md", "six", "six from B")
	commitAll(t, rb, "B edits r")
	res, err := rb.Pull(ctx, gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullConflict {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	if d := cmp.Diff([]string{"UU r.md"}, porcelain(t, b)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
	stages := lines(run(t, b, "ls-files", "-u", "--", "r.md"))
	if len(stages) != 3 {
		t.Fatalf("git ls-files -u = %q, want three stages", stages)
	}
	if _, err := tryGit(b, "commit", "-qm", "git refuses too"); err == nil {
		t.Fatal("git committed over unmerged entries")
	}
	d, err := rb.Conflict(ctx, "r.md")
	if err != nil || len(d.Hunks) != 2 {
		t.Fatalf("Conflict = %+v, %v", d, err)
	}
	if _, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "r.md", Take: gitrepo.TakeOurs, Hunks: []int{3}}); !errors.Is(err, gitrepo.ErrBadResolution) {
		t.Errorf("Resolve of hunk 3 of 2 = %v, want ErrBadResolution", err)
	}
	r1, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "r.md", Take: gitrepo.TakeTheirs, Hunks: []int{2}})
	if err != nil || r1.Resolved || r1.Remaining != 1 {
		t.Fatalf("Resolve of hunk 2 = %+v, %v", r1, err)
	}
	if d := cmp.Diff([]string{"UU r.md"}, porcelain(t, b)); d != "" {
		t.Errorf("git status with a hunk left (-want +got):\n%s", d)
	}
	r2, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "r.md", Take: gitrepo.TakeOurs})
	if err != nil || !r2.Resolved {
		t.Fatalf("Resolve of the rest = %+v, %v", r2, err)
	}
	got := read(t, b, "r.md")
	if !strings.Contains(got, "two from B\n") || !strings.Contains(got, "six from A\n") || strings.Contains(got, "from A\ntwo") || strings.Contains(got, "<<<") {
		t.Errorf("r.md resolved:\n%s", got)
	}
	commitAll(t, rb, "Resolve r")
	assertMergeCommitted(t, b)
	if parents := strings.Fields(run(t, b, "rev-list", "--parents", "-1", "HEAD")); len(parents) == 3 && parents[2] != head(t, a) {
		t.Errorf("the second parent is %s, want A's %s", parents[2], head(t, a))
	}
}

// TestConflictingFrontMatterMergesByProperty: changes to different properties merge
// (even on adjacent lines, where git's line merge conflicts); the same property
// changed on both sides is one hunk naming it, which cannot keep both.
func TestConflictingFrontMatterMergesByProperty(t *testing.T) {
	_, a, b := clones(t)
	front := "---\nstatus: draft\ntags:\n  - idea\nowner: ada\n---\n# Plan\n\nbody\n"
	write(t, a, map[string]string{"plan.md": front})
	run(t, a, "add", "plan.md")
	run(t, a, "commit", "-qm", "plan")
	run(t, a, "push", "-q", "origin", "main")
	run(t, b, "pull", "-q", "origin", "main")
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()
	write(t, a, map[string]string{"plan.md": "---\nstatus: done\ntags:\n  - idea\n  - from-a\nowner: ada\n---\n# Plan\n\nbody\n"})
	commitAll(t, ra, "A")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, b, map[string]string{"plan.md": "---\nstatus: dropped\ntags:\n  - idea\nowner: bob\n---\n# Plan\n\nbody from B\n"})
	commitAll(t, rb, "B")
	if res, err := rb.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullConflict {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	d, err := rb.Conflict(ctx, "plan.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 1 || d.Hunks[0].Property != "status" || d.Hunks[0].Ours != "status: dropped\n" || d.Hunks[0].Theirs != "status: done\n" || d.Hunks[0].Base != "status: draft\n" {
		t.Fatalf("hunks = %+v\nfile:\n%s", d.Hunks, read(t, b, "plan.md"))
	}
	if _, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "plan.md", Take: gitrepo.TakeBoth}); !errors.Is(err, gitrepo.ErrBadResolution) {
		t.Errorf("both values of one property = %v, want ErrBadResolution", err)
	}
	if res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "plan.md", Take: gitrepo.TakeTheirs}); err != nil || !res.Resolved {
		t.Fatalf("Resolve = %+v, %v", res, err)
	}
	want := "---\nstatus: done\ntags:\n  - idea\n  - from-a\nowner: bob\n---\n# Plan\n\nbody from B\n"
	if got := read(t, b, "plan.md"); got != want {
		t.Errorf("plan.md:\n%s\nwant:\n%s", got, want)
	}
	commitAll(t, rb, "merge plan")
	assertMergeCommitted(t, b)
}

// TestDeletedAgainstModified: a note deleted on one side and edited on the other
// stays on disk (no side lost) as a whole-file conflict, as git keeps it, in
// MemoTree's pull and in git's; either side can be taken.
func TestDeletedAgainstModified(t *testing.T) {
	t.Run("deleted by them, in MemoTree's pull", func(t *testing.T) {
		_, a, b := clones(t)
		ra, rb := open(t, a), open(t, b)
		ctx := t.Context()
		if err := os.Remove(filepath.Join(a, "p.md")); err != nil {
			t.Fatal(err)
		}
		commitAll(t, ra, "A deletes p")
		if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
			t.Fatal(err)
		}
		edit(t, b, "p.md", "four", "four from B")
		commitAll(t, rb, "B edits p")
		if res, err := rb.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullConflict {
			t.Fatalf("Pull = %+v, %v", res, err)
		}
		if d := cmp.Diff([]string{"UD p.md"}, porcelain(t, b)); d != "" {
			t.Errorf("git status (-want +got):\n%s", d)
		}
		list, err := rb.Conflicts(ctx)
		if err != nil || len(list) != 1 || list[0].Kind != gitrepo.ConflictDeletedByThem {
			t.Fatalf("Conflicts = %+v, %v", list, err)
		}
		if _, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "p.md", Take: gitrepo.TakeOurs, Hunks: []int{1}}); !errors.Is(err, gitrepo.ErrBadResolution) {
			t.Errorf("a hunk of a deleted note = %v", err)
		}
		if res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "p.md", Take: gitrepo.TakeTheirs}); err != nil || !res.Resolved {
			t.Fatalf("Resolve = %+v, %v", res, err)
		}
		if got := read(t, b, "p.md"); got != "<absent>" {
			t.Errorf("p.md after taking the deletion: %q", got)
		}
		commitAll(t, rb, "merge")
		assertMergeCommitted(t, b)
	})
	t.Run("deleted by us, in git's pull", func(t *testing.T) {
		_, a, b := clones(t)
		edit(t, a, "p.md", "four", "four from A")
		run(t, a, "commit", "-qam", "A edits p")
		run(t, a, "push", "-q", "origin", "main")
		run(t, b, "rm", "-q", "p.md")
		run(t, b, "commit", "-qm", "B deletes p")
		if _, err := tryGit(b, "-c", "pull.rebase=false", "pull", "-q", "origin", "main"); err == nil {
			t.Fatal("git pull met no conflict")
		}
		rb := open(t, b)
		changes, err := rb.Status(t.Context())
		if err != nil || len(changes) != 1 || changes[0].State != gitrepo.Conflicted {
			t.Fatalf("Status = %+v, %v", changes, err)
		}
		if res, err := rb.Resolve(t.Context(), gitrepo.ResolveOptions{Path: "p.md", Take: gitrepo.TakeBoth}); err != nil || !res.Resolved {
			t.Fatalf("Resolve both = %+v, %v", res, err)
		}
		if got := read(t, b, "p.md"); !strings.Contains(got, "four from A") {
			t.Errorf("p.md kept: %q", got)
		}
		commitAll(t, rb, "merge")
		assertMergeCommitted(t, b)
	})
}

// TestConflictKeepsCRLFAndBOM: a Windows note with a byte order mark conflicts with
// markers ending in CRLF and the mark still first; taking a side gives back that
// side's bytes exactly.
func TestConflictKeepsCRLFAndBOM(t *testing.T) {
	_, a, b := clones(t)
	const bomMark = "\ufeff"
	text := bomMark + "# Win\r\n\r\none\r\ntwo\r\nthree\r\n"
	write(t, a, map[string]string{"win.md": text})
	run(t, a, "add", "win.md")
	run(t, a, "commit", "-qm", "win")
	run(t, a, "push", "-q", "origin", "main")
	run(t, b, "pull", "-q", "origin", "main")
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()
	theirs := strings.Replace(text, "two", "two from A", 1)
	write(t, a, map[string]string{"win.md": theirs})
	commitAll(t, ra, "A")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	ours := strings.Replace(text, "two", "two from B", 1)
	write(t, b, map[string]string{"win.md": ours})
	commitAll(t, rb, "B")
	if _, err := rb.Pull(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	got := read(t, b, "win.md")
	if !strings.HasPrefix(got, bomMark+"# Win\r\n") || !strings.Contains(got, "<<<<<<< your version\r\ntwo from B\r\n=======\r\ntwo from A\r\n>>>>>>> origin/main\r\n") {
		t.Errorf("win.md with markers: %q", got)
	}
	if res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "win.md", Take: gitrepo.TakeOurs}); err != nil || !res.Resolved {
		t.Fatalf("Resolve = %+v, %v", res, err)
	}
	if got := read(t, b, "win.md"); got != ours {
		t.Errorf("win.md resolved = %q, want %q", got, ours)
	}
	commitAll(t, rb, "merge")
	assertMergeCommitted(t, b)
}

// TestCommitRefusesConflictMarkers: a note that still holds a conflict (markers made
// outside any merge, or left after `git add`) is never committed; markers shown in a
// fenced code block of a note are an example, not a conflict.
func TestCommitRefusesConflictMarkers(t *testing.T) {
	dir, r := newRepo(t)
	marked := "# A\n\n<<<<<<< ours\nmine\n=======\nyours\n>>>>>>> theirs\n"
	example := "# Git\n\n```\n<<<<<<< ours\nmine\n=======\nyours\n>>>>>>> theirs\n```\n\nSetext\n=======\n"
	write(t, dir, map[string]string{"a.md": marked, "people/Charles.md": example})
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "markers"})
	if !errors.Is(err, gitrepo.ErrUnresolved) || !strings.Contains(err.Error(), "a.md") || strings.Contains(err.Error(), "Charles") {
		t.Fatalf("Commit = %v, want ErrUnresolved naming a.md alone", err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "the example", Paths: []vpath.Path{"people/Charles.md"}}); err != nil {
		t.Errorf("a note showing markers in a code block: %v", err)
	}
}

// TestPullRefusesARewrittenRemote: a remote whose branch was force-pushed without
// commits this copy has is not merged (that would bring them back): the pull says
// what to do, changes nothing, and says it again next time.
func TestPullRefusesARewrittenRemote(t *testing.T) {
	_, a, b := clones(t)
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()
	edit(t, a, "n1.md", "one", "ONE, soon rewritten")
	commitAll(t, ra, "to be rewritten")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if res, err := rb.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	run(t, a, "reset", "-q", "--hard", "HEAD~1")
	edit(t, a, "n2.md", "two", "TWO, rewritten")
	run(t, a, "commit", "-qam", "rewritten")
	run(t, a, "push", "-q", "--force", "origin", "main")
	before, n1 := head(t, b), read(t, b, "n1.md")
	for range 2 {
		_, err := rb.Pull(ctx, gitrepo.SyncOptions{})
		if !errors.Is(err, gitrepo.ErrRewritten) || !strings.Contains(err.Error(), "git reset --keep origin/main") || !strings.Contains(err.Error(), "--force-with-lease") {
			t.Fatalf("Pull of a rewritten remote = %v, want ErrRewritten saying what to do", err)
		}
	}
	if head(t, b) != before || read(t, b, "n1.md") != n1 || len(porcelain(t, b)) != 0 {
		t.Error("a refused pull changed the copy")
	}
}

// TestAheadBehind counts as `git status -sb` does against the remote's copy last
// fetched.
func TestAheadBehind(t *testing.T) {
	_, a, b := clones(t)
	rb := open(t, b)
	count := func(want gitrepo.Divergence) {
		t.Helper()
		got, err := rb.AheadBehind("")
		if err != nil || got != want {
			t.Errorf("AheadBehind = %+v, %v; want %+v", got, err, want)
		}
	}
	count(gitrepo.Divergence{Tracked: true})
	edit(t, b, "n1.md", "one", "1")
	commitAll(t, rb, "one")
	edit(t, b, "n1.md", "two", "2")
	commitAll(t, rb, "two")
	count(gitrepo.Divergence{Tracked: true, Ahead: 2})
	edit(t, a, "q.md", "one", "1")
	run(t, a, "commit", "-qam", "A")
	run(t, a, "push", "-q", "origin", "main")
	run(t, b, "fetch", "-q", "origin")
	count(gitrepo.Divergence{Tracked: true, Ahead: 2, Behind: 1})
	// A merge and more commits on both sides: the counts are git's.
	run(t, b, "merge", "-q", "--no-edit", "origin/main")
	edit(t, a, "q.md", "two", "2")
	run(t, a, "commit", "-qam", "A again")
	run(t, a, "push", "-q", "origin", "main")
	run(t, b, "fetch", "-q", "origin")
	var ahead, behind int
	if _, err := fmt.Sscan(run(t, b, "rev-list", "--left-right", "--count", "HEAD...origin/main"), &ahead, &behind); err != nil {
		t.Fatal(err)
	}
	count(gitrepo.Divergence{Tracked: true, Ahead: ahead, Behind: behind})
	if ahead != 3 || behind != 1 {
		t.Errorf("git counts %d ahead, %d behind; the test meant 3 and 1", ahead, behind)
	}
	_, lone := newRepo(t)
	if got, err := lone.AheadBehind(""); err != nil || got.Tracked {
		t.Errorf("AheadBehind without a remote = %+v, %v", got, err)
	}
}

// TestOperationNamesWhatFinishesIt: a rebase, cherry-pick, revert or merge that git
// left waiting is named with the command that finishes it.
func TestOperationNamesWhatFinishesIt(t *testing.T) {
	for _, tc := range []struct{ marker, kind, says string }{
		{"rebase-merge/head-name", "rebase", "git rebase --continue"},
		{"rebase-apply/applying", "rebase", "git rebase --continue"},
		{"CHERRY_PICK_HEAD", "cherry-pick", "git cherry-pick --continue"},
		{"REVERT_HEAD", "revert", "git revert --continue"},
		{"MERGE_HEAD", "merge", "git merge --abort"},
		{"", "", ""},
	} {
		dir, r := newRepo(t)
		if tc.marker != "" {
			write(t, dir, map[string]string{".git/" + tc.marker: run(t, dir, "rev-parse", "HEAD")})
		}
		op := r.Operation()
		if op.Kind != tc.kind || !strings.Contains(op.Message, tc.says) {
			t.Errorf("with .git/%s: Operation = %+v, want %s saying %q", tc.marker, op, tc.kind, tc.says)
		}
	}
}

// TestAheadBehindWithinOneSecond: every commit of both clones made in the same second
// (a script committing, a fast machine), so that the walk's newest-first order cannot
// tell a commit from its parent: the counts are still git's, after each round of
// commits on both sides, merged or not.
func TestAheadBehindWithinOneSecond(t *testing.T) {
	t.Setenv("GIT_COMMITTER_DATE", "2026-12-01T10:00:00Z")
	t.Setenv("GIT_AUTHOR_DATE", "2026-12-01T10:00:00Z")
	_, a, b := clones(t)
	rb := open(t, b)
	for round := range 4 {
		for i := range round + 1 { // the two sides unlike: one commit here, two there
			write(t, b, map[string]string{fmt.Sprintf("b%d-%d.md", round, i): "b\n"})
			run(t, b, "add", "-A")
			run(t, b, "commit", "-qm", fmt.Sprintf("b %d %d", round, i))
		}
		for i := range round + 2 {
			write(t, a, map[string]string{fmt.Sprintf("a%d-%d.md", round, i): "a\n"})
			run(t, a, "add", "-A")
			run(t, a, "commit", "-qm", fmt.Sprintf("a %d %d", round, i))
		}
		run(t, a, "push", "-q", "origin", "main")
		run(t, b, "fetch", "-q", "origin")
		var ahead, behind int
		if _, err := fmt.Sscan(run(t, b, "rev-list", "--left-right", "--count", "HEAD...origin/main"), &ahead, &behind); err != nil {
			t.Fatal(err)
		}
		got, err := rb.AheadBehind("")
		if want := (gitrepo.Divergence{Tracked: true, Ahead: ahead, Behind: behind}); err != nil || got != want {
			t.Errorf("round %d: AheadBehind = %+v, %v; git counts %+v", round, got, err, want)
		}
		if round%2 == 1 {
			run(t, b, "merge", "-q", "--no-edit", "origin/main")
		}
	}
}
