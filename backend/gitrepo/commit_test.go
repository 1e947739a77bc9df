package gitrepo_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// TestCommitLeavesWhatThePersonStaged: a note the person staged by hand and did not
// name is neither committed nor unstaged; its index entry keeps its bytes.
func TestCommitLeavesWhatThePersonStaged(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"people/Charles.md": "# Charles\n\nstaged by hand\n", "a.md": "# A\n\nby the agent\n"})
	run(t, dir, "add", "people/Charles.md")
	staged := run(t, dir, "ls-files", "-s", "people/Charles.md")
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "A only", Paths: []vpath.Path{"a.md"}}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a.md"}, lines(run(t, dir, "show", "--name-only", "--format=", "HEAD"))); d != "" {
		t.Errorf("files in the commit (-want +got):\n%s", d)
	}
	if got := run(t, dir, "ls-files", "-s", "people/Charles.md"); got != staged {
		t.Errorf("the staged note's index entry changed: %q, was %q", got, staged)
	}
	if d := cmp.Diff([]string{"M  people/Charles.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after the commit (-want +got):\n%s", d)
	}
	if got := run(t, dir, "show", "HEAD:a.md"); got != "# A\n\nby the agent\n" {
		t.Errorf("a.md in HEAD = %q", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitTakesTheWorkingTree: a named note staged, then edited again, is committed
// as it is on disk (as `git commit -- path` does), and its index entry follows.
func TestCommitTakesTheWorkingTree(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "staged\n"})
	run(t, dir, "add", "a.md")
	write(t, dir, map[string]string{"a.md": "on disk\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "a", Paths: []vpath.Path{"a.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "show", "HEAD:a.md"); got != "on disk\n" {
		t.Errorf("a.md in HEAD = %q", got)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status = %q", got)
	}
}

// TestCommitPathsAgainstGit commits random sets of paths after random edits and
// compares the commit's tree and the index with what git makes of the same: the tree
// of HEAD plus `git add -A -- paths` in a scratch index, and the real index after
// `git add -A -- paths`.
func TestCommitPathsAgainstGit(t *testing.T) {
	dir, r := newRepo(t)
	rng := rand.New(rand.NewPCG(19, 23))
	names := []string{"a.md", "b.md", "people/Ada.md", "people/Charles.md", "new/deep/n.md", "n.md", "x", "x/y.md",
		"attachments/x.png", "ü ñ/名前.md", ".obsidian/app.json"}
	commits := 0
	defer func() {
		if !t.Failed() && commits < 15 {
			t.Errorf("only %d of 40 rounds committed anything: the test compares too little", commits)
		}
	}()
	for round := range 40 {
		for range 1 + rng.IntN(4) {
			name := names[rng.IntN(len(names))]
			full := filepath.Join(dir, filepath.FromSlash(name))
			switch rng.IntN(5) {
			case 0, 1:
				os.RemoveAll(full)
				os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, fmt.Appendf(nil, "round %d\n", round), 0o644); err != nil {
					t.Logf("write %s: %v", name, err) // a file where a folder is wanted: skip
				}
				// A whole second apart per round, so git, which compares whole seconds,
				// does not trust the stat data of a same-size rewrite in one second.
				stamp := time.Unix(1_700_000_000+int64(round), 0)
				os.Chtimes(full, stamp, stamp)
			case 2:
				os.RemoveAll(full)
			case 3:
				tryGit(dir, "add", "-A", "--", name)
			case 4:
				tryGit(dir, "reset", "-q", "--", name)
			}
		}
		st, err := r.Status(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var paths []vpath.Path
		for _, p := range gitrepo.Paths(st) {
			if rng.IntN(2) == 0 {
				paths = append(paths, p)
			}
		}
		if len(paths) == 0 {
			continue
		}
		args := make([]string, len(paths))
		for i, p := range paths {
			args[i] = string(p)
		}
		scratch := filepath.Join(t.TempDir(), "index")
		env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
		gitWith(t, dir, env, "read-tree", "HEAD")
		addEach(t, dir, env, args)
		wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
		// The real index as git would leave it, computed on a copy of it.
		idxCopy := filepath.Join(t.TempDir(), "index")
		copyFile(t, filepath.Join(dir, ".git", "index"), idxCopy)
		env = append(gitEnv(dir), "GIT_INDEX_FILE="+idxCopy)
		addEach(t, dir, env, args)
		wantIndex := gitWith(t, dir, env, "ls-files", "-s")
		headTree := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}"))

		_, err = r.Commit(t.Context(), gitrepo.CommitOptions{Message: fmt.Sprintf("round %d", round), Paths: paths})
		if wantTree == headTree {
			if !errors.Is(err, gitrepo.ErrNothingToCommit) {
				t.Fatalf("round %d: commit of %v with no change = %v", round, paths, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("round %d: commit of %v: %v", round, paths, err)
		}
		if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
			t.Fatalf("round %d: tree of the commit of %v = %s, git makes %s\n%s", round, paths, got, wantTree, run(t, dir, "ls-tree", "-r", "HEAD"))
		}
		if got := run(t, dir, "ls-files", "-s"); got != wantIndex {
			t.Fatalf("round %d: index after the commit of %v (-git +ours):\n%s", round, paths, cmp.Diff(wantIndex, got))
		}
		run(t, dir, "fsck", "--strict", "--no-progress")
		commits++
	}
}

func gitWith(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := gitCmd(dir, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// addEach runs `git add -A -- p` for each path, skipping those git knows nowhere (a
// file staged, then deleted, is not in a scratch index read from HEAD).
func addEach(t *testing.T, dir string, env, paths []string) {
	t.Helper()
	for _, p := range paths {
		cmd := gitCmd(dir, "add", "-A", "--", p)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "did not match") {
			t.Fatalf("git add %s: %v\n%s", p, err, out)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// The copy keeps the index's time, which git's check for racily clean entries
	// compares files with: a later time would make git trust stale stat data.
	fi, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(to, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestCommitRefusedMidOperation: a rebase, cherry-pick or revert in progress refuses
// every commit, saying what is in progress and how to finish it; a merge refuses a
// commit of some notes and completes with a commit of all.
func TestCommitRefusedMidOperation(t *testing.T) {
	for _, m := range []struct{ marker, says string }{
		{"rebase-merge/head-name", "git rebase --continue"},
		{"rebase-apply/applying", "rebase"},
		{"CHERRY_PICK_HEAD", "git cherry-pick --abort"},
		{"REVERT_HEAD", "git revert --continue"},
	} {
		dir, r := newRepo(t)
		write(t, dir, map[string]string{"a.md": "x\n", ".git/" + m.marker: run(t, dir, "rev-parse", "HEAD")})
		head := run(t, dir, "rev-parse", "HEAD")
		_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m"})
		if !errors.Is(err, gitrepo.ErrInProgress) || !strings.Contains(err.Error(), m.says) {
			t.Errorf("commit with .git/%s = %v, want ErrInProgress saying %q", m.marker, err, m.says)
		}
		if run(t, dir, "rev-parse", "HEAD") != head || len(run(t, dir, "diff", "--cached")) > 0 {
			t.Errorf("with .git/%s: HEAD or the index changed", m.marker)
		}
	}
}

// TestCommitDuringAGitMerge: a merge git began with a conflict is refused while the
// conflict is unmerged (even once the file was edited by hand, as git refuses it until
// `git add`), then completed by a commit of every pending change (two parents, fsck
// clean) and refused for a commit of some.
func TestCommitDuringAGitMerge(t *testing.T) {
	dir, r := newRepo(t)
	run(t, dir, "checkout", "-q", "-b", "side")
	write(t, dir, map[string]string{"a.md": "side\n"})
	run(t, dir, "commit", "-q", "-am", "side")
	run(t, dir, "checkout", "-q", "main")
	write(t, dir, map[string]string{"a.md": "main\n", "b.md": "main b\n"})
	run(t, dir, "commit", "-q", "-am", "main")
	if out, err := tryGit(dir, "merge", "side"); err == nil {
		t.Fatalf("the merge was meant to conflict:\n%s", out)
	}
	write(t, dir, map[string]string{"a.md": "resolved\n", "people/Ada.md": "# Ada\n\nedited meanwhile\n"})
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "Merge side"}); !errors.Is(err, gitrepo.ErrUnresolved) {
		t.Fatalf("a commit over an unmerged a.md = %v, want ErrUnresolved", err)
	}
	if _, err := r.Resolve(t.Context(), gitrepo.ResolveOptions{Path: "a.md", Take: gitrepo.TakeAsEdited}); err != nil {
		t.Fatal(err)
	}
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "part", Paths: []vpath.Path{"a.md"}})
	if !errors.Is(err, gitrepo.ErrPartialMerge) {
		t.Fatalf("a commit of some notes during a merge = %v, want ErrPartialMerge", err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "Merge side"}); err != nil {
		t.Fatal(err)
	}
	if parents := strings.Fields(run(t, dir, "rev-list", "--parents", "-1", "HEAD")); len(parents) != 3 {
		t.Errorf("the merge commit's parents = %v", parents)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status after the merge commit = %q", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitOnDetachedHead commits as git does: HEAD moves and stays detached.
func TestCommitOnDetachedHead(t *testing.T) {
	dir, r := newRepo(t)
	run(t, dir, "checkout", "-q", "--detach")
	branch := run(t, dir, "rev-parse", "main")
	write(t, dir, map[string]string{"a.md": "detached\n"})
	h, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "on a detached HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD")); got != h.String() {
		t.Errorf("HEAD = %s, want the new commit %s", got, h)
	}
	if _, err := tryGit(dir, "symbolic-ref", "-q", "HEAD"); err == nil {
		t.Error("HEAD is on a branch again")
	}
	if run(t, dir, "rev-parse", "main") != branch {
		t.Error("main moved")
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitWaitsForAGitCommandsIndexLock: a git command's index.lock gone within the
// wait lets the commit through; one that stays gives ErrIndexLocked.
func TestCommitWaitsForAGitCommandsIndexLock(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "x\n", ".git/index.lock": ""})
	// The lock goes once the commit has found it twice: one that does not wait
	// fails at the first.
	releaseIndexLockAfterTries(t, dir, 2)
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "after the lock"}); err != nil {
		t.Fatalf("commit after a short-lived index.lock = %v", err)
	}
	if got := porcelain(t, dir); len(got) != 0 {
		t.Errorf("git status = %q", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitInAnEmptyRepository makes the first commit of a branch.
func TestCommitInAnEmptyRepository(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "v")
	write(t, dir, map[string]string{"a.md": "a\n", "f/b.md": "b\n"})
	run(t, dir, "init", "-q")
	r := open(t, dir)
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "first", Paths: []vpath.Path{"f/b.md"}}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"f/b.md"}, lines(run(t, dir, "ls-tree", "-r", "--name-only", "HEAD"))); d != "" {
		t.Errorf("the first commit (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"?? a.md"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status (-want +got):\n%s", d)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestStatusShowsObsidiansFiles: changes in .obsidian/ and .trash/ are reported as
// git reports them, by Status and by a Tracker that was never told (the watcher does
// not watch those folders); they can be committed, and a discard of them is refused.
func TestStatusShowsObsidiansFiles(t *testing.T) {
	dir, r := newRepo(t)
	tr := gitrepo.NewTracker(r)
	if _, err := tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{".obsidian/app.json": "{}\n", ".trash/old.md": "old\n"})
	for name, status := range map[string]func() ([]gitrepo.Change, error){
		"Status":  func() ([]gitrepo.Change, error) { return r.Status(t.Context()) },
		"Tracker": func() ([]gitrepo.Change, error) { return tr.Status(t.Context()) },
	} {
		st, err := status()
		if err != nil {
			t.Fatal(err)
		}
		compareWithGit(t, dir, name, statesOf(st))
		if len(st) != 2 {
			t.Errorf("%s = %v, want the two new files", name, st)
		}
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "settings", Paths: []vpath.Path{".obsidian/app.json"}}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{".obsidian/app.json": "{\"useMarkdownLinks\": true}\n"})
	st, err := tr.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "Tracker after an edit in .obsidian", statesOf(st))
	if _, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{".obsidian/app.json"}}); !errors.Is(err, gitrepo.ErrInvalidPath) || !strings.Contains(err.Error(), "git restore") {
		t.Errorf("discard of .obsidian/app.json = %v, want a refusal saying how", err)
	}
	if got := read(t, dir, ".obsidian/app.json"); got != "{\"useMarkdownLinks\": true}\n" {
		t.Errorf(".obsidian/app.json changed: %q", got)
	}
	// A folder git ignores as a whole reports nothing, tracked files aside.
	write(t, dir, map[string]string{".gitignore": ".trash/\n"})
	tr.Touch(".gitignore") // as the watcher does
	if _, err := tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{".trash/later.md": "later\n"})
	st, err = tr.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "Tracker with .trash/ ignored", statesOf(st))
}

// TestSubmodulesAndNestedRepositoriesLeftAlone: a submodule and a repository nested
// in the vault are git's to manage from inside them: Status reports nothing in them
// (never their .git), a commit of every change keeps the submodule's gitlink as it
// was, and a commit naming a file inside the submodule is refused.
func TestSubmodulesAndNestedRepositoriesLeftAlone(t *testing.T) {
	dir, r := newRepo(t)
	sub := filepath.Join(t.TempDir(), "sub")
	write(t, sub, map[string]string{"s.md": "s\n"})
	run(t, sub, "init", "-q")
	run(t, sub, "add", "-A")
	run(t, sub, "commit", "-q", "-m", "s")
	run(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mod")
	run(t, dir, "commit", "-q", "-m", "submodule")
	link := run(t, dir, "ls-tree", "HEAD", "mod")
	nested := filepath.Join(dir, "notes", "nested")
	write(t, nested, map[string]string{"n.md": "n\n"})
	run(t, nested, "init", "-q")
	write(t, dir, map[string]string{"mod/s.md": "changed\n", "mod/new.md": "new\n", "c.md": "c\n"})
	tr := gitrepo.NewTracker(r)
	if _, err := tr.Status(t.Context()); err != nil {
		t.Fatal(err)
	}
	tr.Touch("mod/s.md", "mod/new.md", "mod/.git", "notes/nested/n.md") // as the watcher does
	for name, status := range map[string]func() ([]gitrepo.Change, error){
		"Status":  func() ([]gitrepo.Change, error) { return r.Status(t.Context()) },
		"Tracker": func() ([]gitrepo.Change, error) { return tr.Status(t.Context()) },
	} {
		st, err := status()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]vpath.Path{"c.md"}, gitrepo.Paths(st)); d != "" {
			t.Errorf("%s (-want +got):\n%s", name, d)
		}
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all"}); err != nil {
		t.Fatal(err)
	}
	if got := run(t, dir, "ls-tree", "HEAD", "mod"); got != link {
		t.Errorf("the submodule's entry after a commit of every change = %q, was %q", got, link)
	}
	if got := run(t, dir, "ls-tree", "-r", "--name-only", "HEAD"); strings.Contains(got, "mod/") || strings.Contains(got, "nested") {
		t.Errorf("the commit holds files of the submodule or the nested repository:\n%s", got)
	}
	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "inside", Paths: []vpath.Path{"mod/s.md"}})
	if !errors.Is(err, gitrepo.ErrInvalidPath) || !strings.Contains(err.Error(), "submodule") {
		t.Errorf("a commit of a file inside the submodule = %v, want ErrInvalidPath naming the submodule", err)
	}
	if got := run(t, dir, "ls-tree", "HEAD", "mod"); got != link {
		t.Errorf("the submodule's entry after a refused commit = %q, was %q", got, link)
	}
	if got := run(t, dir, "ls-files", "-s", "mod"); !strings.HasPrefix(got, "160000 ") {
		t.Errorf("the submodule's index entry = %q, want the gitlink", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitWhereAFolderReplacedAFile: a note replaced by a folder of the same name,
// and a folder replaced by a file. A commit of every pending change makes the tree
// and index `git add -A` makes; a commit naming only the replaced note commits its
// removal and leaves the folder's new file pending.
func TestCommitWhereAFolderReplacedAFile(t *testing.T) {
	replace := func(dir string) {
		if err := os.Remove(filepath.Join(dir, "a.md")); err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(filepath.Join(dir, "people")); err != nil {
			t.Fatal(err)
		}
		write(t, dir, map[string]string{"a.md/inner.md": "inner\n", "people": "a file now\n"})
	}
	dir, r := newRepo(t)
	replace(dir)
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "after the replacements", statesOf(st))
	scratch := filepath.Join(t.TempDir(), "index")
	copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	gitWith(t, dir, env, "add", "-A")
	wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
	wantIndex := gitWith(t, dir, env, "ls-files", "-s")
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "all", Paths: gitrepo.Paths(st)}); err != nil {
		t.Fatalf("a commit of every change: %v", err)
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
		t.Errorf("tree = %s, git add -A makes %s\n%s", got, wantTree, run(t, dir, "ls-tree", "-r", "HEAD"))
	}
	if got := run(t, dir, "ls-files", "-s"); got != wantIndex {
		t.Errorf("index (-git +ours):\n%s", cmp.Diff(wantIndex, got))
	}
	run(t, dir, "fsck", "--strict", "--no-progress")

	dir, r = newRepo(t)
	replace(dir)
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "a.md", Paths: []vpath.Path{"a.md"}}); err != nil {
		t.Fatalf("a commit of the replaced note: %v", err)
	}
	if d := cmp.Diff([]string{"attachments/x.png", "b.md", "people/Ada.md", "people/Charles.md"}, lines(run(t, dir, "ls-tree", "-r", "--name-only", "HEAD"))); d != "" {
		t.Errorf("HEAD after the commit of a.md (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{" D people/Ada.md", " D people/Charles.md", "?? a.md/inner.md", "?? people"}, porcelain(t, dir)); d != "" {
		t.Errorf("git status after the commit of a.md (-want +got):\n%s", d)
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestCommitWithoutTrustedExecutableBits: with core.fileMode false (git's setting
// where the file system cannot keep the executable bit: a vault on exFAT, a Windows
// drive under WSL, Windows itself), every file may look executable. Status ignores the
// bit, as git status does, and a commit keeps each note's mode as the index has it
// (a new file 100644), as git commit does; with the setting true, the bit counts.
func TestCommitWithoutTrustedExecutableBits(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "run.sh")
	run(t, dir, "commit", "-q", "-m", "a script")
	run(t, dir, "config", "core.fileMode", "false")
	write(t, dir, map[string]string{"b.md": "changed\n", "new.md": "new\n", "run.sh": "#!/bin/sh\necho\n"})
	for _, name := range []string{"a.md", "b.md", "new.md"} {
		if err := os.Chmod(filepath.Join(dir, name), 0o777); err != nil { // as exFAT shows every file
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "core.fileMode false", statesOf(st))
	scratch := filepath.Join(t.TempDir(), "index")
	copyFile(t, filepath.Join(dir, ".git", "index"), scratch)
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	addEach(t, dir, env, []string{"b.md", "new.md", "run.sh"})
	wantTree := strings.TrimSpace(gitWith(t, dir, env, "write-tree"))
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "m", Paths: []vpath.Path{"b.md", "new.md", "run.sh"}}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
		t.Errorf("with core.fileMode false the commit's tree is\n%swhere git makes\n%s", run(t, dir, "ls-tree", "-r", "HEAD"), gitWith(t, dir, env, "ls-tree", "-r", wantTree))
	}
	run(t, dir, "config", "core.fileMode", "true")
	st, err = r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, dir, "core.fileMode true", statesOf(st))
}
