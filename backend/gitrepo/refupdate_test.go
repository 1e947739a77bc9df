package gitrepo_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/crashtest"
)

// refMoves is how many times TestGitReadsHEADWhileMemoTreeMovesIt moves the branch in
// each case. With go-git's in-place rewrite of the branch file both cases failed in
// 10 of 10 runs with -race and 5 of 5 without (2 busy cores), the readers finding the
// branch empty from the first few moves on; the whole test takes about 8 s with -race.
const refMoves = 12

// headReaders runs git's readers of HEAD in dir over and over until stop is closed,
// as a person's terminal, Obsidian Git or a hook would while MemoTree works: `git
// rev-parse --verify HEAD` and `git status --porcelain` in turn, and one long-lived
// `git cat-file --batch-check` asked for HEAD again and again (git reads the branch
// file anew for each question, so it looks far more often than a new process can).
// It returns the failures seen, once the readers have stopped, and how many reads
// they made.
func headReaders(t *testing.T, dir string, stop <-chan struct{}) func() (fails []string, reads int) {
	t.Helper()
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		count int
		fails []string
	)
	fail := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		if len(fails) < 5 {
			fails = append(fails, s)
		}
	}
	done := func() bool {
		select {
		case <-stop:
			return true
		default:
			mu.Lock()
			count++
			mu.Unlock()
			return false
		}
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; !done(); i++ {
			args := []string{"rev-parse", "--verify", "HEAD"}
			if i%2 == 1 {
				args = []string{"status", "--porcelain"}
			}
			if out, err := tryGit(dir, args...); err != nil {
				fail(fmt.Sprintf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(out)))
			}
		}
	}()
	cmd := gitCmd(dir, "cat-file", "--batch-check")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer wg.Done()
		defer cmd.Wait()
		defer in.Close()
		out := bufio.NewReader(outPipe)
		for !done() {
			if _, err := io.WriteString(in, "HEAD\n"); err != nil {
				fail(fmt.Sprintf("git cat-file: %v", err))
				return
			}
			line, err := out.ReadString('\n')
			if err != nil {
				fail(fmt.Sprintf("git cat-file: %v", err))
				return
			}
			if f := strings.Fields(line); len(f) != 3 || f[1] != "commit" {
				fail("git cat-file --batch-check HEAD: " + strings.TrimSpace(line))
			}
		}
	}()
	return func() ([]string, int) {
		wg.Wait()
		return fails, count
	}
}

// TestGitReadsHEADWhileMemoTreeMovesIt: while MemoTree commits, and fast-forwards the
// branch in pulls from a remote on this machine, git commands reading HEAD at the
// same moment (a person's terminal, Obsidian Git, a hook) always find a commit, never
// an empty branch file: the branch file is replaced whole, as git replaces it.
func TestGitReadsHEADWhileMemoTreeMovesIt(t *testing.T) {
	cases := []struct {
		name string
		// setup returns the vault and a function that moves its branch once.
		setup func(t *testing.T) (dir string, move func(i int))
	}{
		{"commit", func(t *testing.T) (string, func(int)) {
			dir, r := newRepo(t)
			return dir, func(i int) {
				write(t, dir, map[string]string{"a.md": fmt.Sprintf("# A\n\nround %d\n", i)})
				commitAll(t, r, fmt.Sprintf("round %d", i))
			}
		}},
		{"fast-forward pull", func(t *testing.T) (string, func(int)) {
			remote, a, b := clones(t)
			// The remote's commits to come, one per move, made in b up front.
			var commits []string
			for i := range refMoves {
				write(t, b, map[string]string{"n1.md": fmt.Sprintf("round %d\n", i)})
				run(t, b, "commit", "-q", "-am", fmt.Sprintf("round %d", i))
				commits = append(commits, head(t, b))
			}
			run(t, b, "push", "-q", "origin", "HEAD:refs/heads/upcoming")
			r := open(t, a)
			return a, func(i int) {
				run(t, remote, "update-ref", "refs/heads/main", commits[i])
				res, err := r.Pull(t.Context(), gitrepo.SyncOptions{})
				if err != nil || res.Outcome != gitrepo.PullFastForward {
					t.Fatalf("pull %d = %+v, %v", i, res, err)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, move := c.setup(t)
			stop := make(chan struct{})
			wait := headReaders(t, dir, stop)
			start := time.Now()
			for i := range refMoves {
				move(i)
			}
			close(stop)
			fails, reads := wait()
			t.Logf("%d moves in %v, %d reads", refMoves, time.Since(start), reads)
			if len(fails) > 0 {
				t.Fatalf("git read HEAD while MemoTree moved the branch %d times and failed:\n%s", refMoves, strings.Join(fails, "\n"))
			}
			run(t, dir, "fsck", "--strict", "--no-progress")
		})
	}
}

// TestCommitRefusedWhileGitHoldsTheBranchLock: a git command updating the branch holds
// refs/heads/main.lock. A commit waits for it a moment; a lock that stays makes the
// commit fail with ErrRefLocked naming the lock and saying what to do, with nothing
// moved, the index as it was and git's lock left alone; a lock that goes while the
// commit waits lets it through.
func TestCommitRefusedWhileGitHoldsTheBranchLock(t *testing.T) {
	dir, r := newRepo(t)
	lock := filepath.Join(dir, ".git", "refs", "heads", "main.lock")
	before := head(t, dir)
	index := read(t, dir, ".git/index")
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n", ".git/refs/heads/main.lock": ""})
	status := porcelain(t, dir)

	_, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "while git holds the branch"})
	if !errors.Is(err, gitrepo.ErrRefLocked) || !strings.Contains(err.Error(), lock) || !strings.Contains(err.Error(), "remove "+lock) {
		t.Fatalf("Commit while git holds main.lock = %v, want ErrRefLocked naming %s and what to do", err, lock)
	}
	if got := head(t, dir); got != before {
		t.Errorf("HEAD moved to %s", got)
	}
	if read(t, dir, ".git/index") != index {
		t.Error("the index changed")
	}
	if got := porcelain(t, dir); strings.Join(got, "\n") != strings.Join(status, "\n") {
		t.Errorf("git status = %q, was %q", got, status)
	}
	if read(t, dir, ".git/refs/heads/main.lock") != "" || exists(dir, ".git/"+"MEMOTREE_REF_UPDATE") {
		t.Error("git's lock was touched, or MemoTree's record of the update was left")
	}
	run(t, dir, "fsck", "--strict", "--no-progress")

	// The lock goes while the commit waits for it (MemoTree's record of the branch's
	// update, made at each try, has been made twice): the commit goes through.
	releaseLockAfterTries(t, dir, "MEMOTREE_REF_UPDATE", "refs/heads/main.lock", 2)
	h, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "once git is done"})
	if err != nil {
		t.Fatalf("Commit once the lock went = %v", err)
	}
	if got := head(t, dir); got != h.String() || len(porcelain(t, dir)) != 0 {
		t.Errorf("HEAD = %s, want the commit %s with nothing pending (%q)", got, h, porcelain(t, dir))
	}
	if exists(dir, ".git/refs/heads/main.lock") {
		t.Error("main.lock is back")
	}
	run(t, dir, "fsck", "--strict", "--no-progress")
}

// TestSIGKILLHoldingTheBranchLock kills a commit at the worst moment for git: the new
// commit is written to refs/heads/main.lock, which is not yet renamed over the
// branch. The branch reads as the old commit meanwhile; git refuses to move it while
// the dead process's lock is there; the next open recognises the lock as MemoTree's
// own (its record of the update, written just before) and removes it, and the next
// commit succeeds. A lock with a record written long before it is git's, and is left.
func TestSIGKILLHoldingTheBranchLock(t *testing.T) {
	dir := roundZeroRepo(t)
	before := head(t, dir)

	c := crashtest.Start(t, "TestCommitKillChild", "MT_COMMIT_KILL_VAULT="+dir, "MT_COMMIT_KILL_AT=main.lock")
	c.Await(t, "holding main.lock", time.Minute)
	c.Kill(t)
	if !exists(dir, ".git/refs/heads/main.lock") || !exists(dir, ".git/MEMOTREE_REF_UPDATE") {
		t.Fatal("the killed commit left no main.lock and record: the test did not reach its point")
	}
	if got := strings.TrimSpace(run(t, dir, "rev-parse", "--verify", "HEAD")); got != before {
		t.Fatalf("HEAD reads %s with the lock held, want the old commit %s", got, before)
	}
	run(t, dir, "fsck", "--strict", "--no-progress", "--no-dangling")
	if out, err := tryGit(dir, "commit", "-q", "--allow-empty", "-m", "git meanwhile"); err == nil || !strings.Contains(out, "main.lock") {
		t.Fatalf("git commit with the stale lock = %v %s; want git's own refusal (the lock is real)", err, out)
	}

	_, r := openRecovered(t, dir)
	if exists(dir, ".git/refs/heads/main.lock") || exists(dir, ".git/MEMOTREE_REF_UPDATE") {
		t.Error("the stale lock or its record is still there after the next open")
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "after the kill"}); err != nil {
		t.Fatalf("the next commit: %v", err)
	}
	if got := roundsOf(t, "HEAD", run(t, dir, "ls-tree", "-r", "HEAD"), 0, 1); got != 1 {
		t.Fatalf("HEAD at round %d after the next commit, want 1", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress", "--no-dangling")

	// A lock git holds, with a record of MemoTree's from long before, is not ours.
	write(t, dir, map[string]string{"n/000.md": "edited\n", ".git/MEMOTREE_REF_UPDATE": "refs/heads/main " + before + "\n",
		".git/refs/heads/main.lock": ""})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".git", "MEMOTREE_REF_UPDATE"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "while git works"}); !errors.Is(err, gitrepo.ErrRefLocked) {
		t.Fatalf("Commit while git holds main.lock = %v, want ErrRefLocked", err)
	}
	if !exists(dir, ".git/refs/heads/main.lock") {
		t.Fatal("git's own main.lock was removed")
	}
}

// TestPushFromALinkedWorktree: in a working tree that `git worktree add` made, whose
// .git is a file, the remote-tracking branch a push moves lives in the main
// repository's git folder (HEAD alone is the worktree's own), where MemoTree writes it
// and git reads it.
func TestPushFromALinkedWorktree(t *testing.T) {
	remote, a, _ := clones(t)
	run(t, a, "checkout", "-q", "-b", "elsewhere")
	dir := filepath.Join(t.TempDir(), "linked")
	run(t, a, "worktree", "add", "-q", dir, "main")
	r := open(t, dir)
	edit(t, dir, "n1.md", "one", "ONE from the linked worktree")
	run(t, dir, "commit", "-qam", "linked")
	mine := head(t, dir)

	if res, err := r.Push(t.Context(), gitrepo.SyncOptions{}); err != nil || res.UpToDate {
		t.Fatalf("Push = %+v, %v", res, err)
	}
	if got := strings.TrimSpace(run(t, remote, "rev-parse", "main")); got != mine {
		t.Fatalf("the remote's main = %s, want %s", got, mine)
	}
	for _, d := range []string{dir, a} {
		if got := strings.TrimSpace(run(t, d, "rev-parse", "origin/main")); got != mine {
			t.Errorf("git rev-parse origin/main in %s = %s, want %s", d, got, mine)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(a, ".git", "worktrees", "*", "refs")); len(m) > 0 {
		t.Errorf("references were written in the worktree's own git folder: %v", m)
	}
	if m, _ := filepath.Glob(filepath.Join(a, ".git", "refs", "remotes", "origin", "*.lock")); len(m) > 0 {
		t.Errorf("locks left: %v", m)
	}
	run(t, a, "fsck", "--strict", "--no-progress")
}
