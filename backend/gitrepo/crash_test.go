package gitrepo_test

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/crashtest"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// crashNotes is how many notes the commit crash test edits and commits each round.
const crashNotes = 120

func roundNote(i, round int) string {
	return fmt.Sprintf("# Note %03d\n\nround %d\n\nA line that stays the same in every round.\n", i, round)
}

func roundPath(i int) vpath.Path { return vpath.Path(fmt.Sprintf("n/%03d.md", i)) }

var roundRE = regexp.MustCompile(`(?m)^round (\d+)$`)

// blobHash is git's object name of a blob with this content.
func blobHash(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil))
}

// openRecovered opens dir as a vault the way a library opens it (an interrupted batch
// finished or dropped, the orphaned temporary files of crashed writes removed), and
// opens the repository.
func openRecovered(t testing.TB, dir string) (*vault.Vault, *gitrepo.Repo) {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if _, err := v.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := v.WalkPaths(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := v.RemoveOrphanTemps(t.Context()); err != nil {
		t.Fatal(err)
	}
	r, err := gitrepo.Open(dir, writer{Vault: v})
	if err != nil {
		t.Fatal(err)
	}
	return v, r
}

// TestCommitKillChild edits every note and commits, round after round, until it is
// killed: the child of TestSIGKILLMidCommit.
func TestCommitKillChild(t *testing.T) {
	dir := os.Getenv("MT_COMMIT_KILL_VAULT")
	if dir == "" {
		t.Skip("child process of TestSIGKILLMidCommit only")
	}
	ctx := t.Context()
	v, r := openRecovered(t, dir)
	switch os.Getenv("MT_COMMIT_KILL_AT") {
	case "index.lock":
		gitrepo.PauseBeforeIndexRename(r, func() {
			crashtest.Say("holding index.lock")
			select {} // held until the parent kills this process
		})
	case "main.lock":
		gitrepo.PauseBeforeRefRename(r, func() {
			crashtest.Say("holding main.lock")
			select {} // held until the parent kills this process
		})
	}
	m := roundRE.FindStringSubmatch(read(t, dir, string(roundPath(0))))
	if m == nil {
		t.Fatal("n/000.md names no round")
	}
	round, _ := strconv.Atoi(m[1])
	for stop := time.Now().Add(2 * time.Minute); time.Now().Before(stop); {
		round++
		changes := make([]vault.Change, crashNotes)
		for i := range changes {
			p := roundPath(i)
			_, h, err := v.Read(p)
			if err != nil {
				t.Fatal(err)
			}
			changes[i] = vault.Change{Path: p, Data: []byte(roundNote(i, round)), IfHash: h}
		}
		crashtest.Say("edit %d", round)
		if _, err := v.Apply(ctx, changes, vault.WriteOptions{Actor: "user", Op: "edit"}); err != nil {
			t.Fatalf("edit round %d: %v", round, err)
		}
		crashtest.Say("commit %d", round)
		start := time.Now()
		if _, err := r.Commit(ctx, gitrepo.CommitOptions{Message: fmt.Sprintf("round %d", round), Tag: fmt.Sprintf("round-%d", round)}); err != nil {
			t.Fatalf("commit round %d: %v", round, err)
		}
		crashtest.Say("committed %d %d", round, time.Since(start))
	}
}

// roundsOf maps each "mode hash stage\tpath" or "mode type hash\tpath" line of git's
// listing of notes to the round whose content has that hash, and fails unless they
// all name one round within [lo, hi].
func roundsOf(t *testing.T, what, listing string, lo, hi int) int {
	t.Helper()
	byHash := map[string]int{}
	for round := lo; round <= hi; round++ {
		for i := range crashNotes {
			byHash[blobHash(roundNote(i, round))] = round
		}
	}
	got, seen := -1, 0
	for _, l := range strings.Split(strings.TrimSpace(listing), "\n") {
		meta, name, ok := strings.Cut(l, "\t")
		if !ok || !strings.HasPrefix(name, "n/") {
			continue
		}
		seen++
		var hash string
		for _, f := range strings.Fields(meta) {
			if len(f) == 40 {
				hash = f
			}
		}
		round, ok := byHash[hash]
		switch {
		case !ok:
			t.Fatalf("%s: %s has content of no round in [%d, %d] (%s)", what, name, lo, hi, l)
		case got >= 0 && round != got:
			t.Fatalf("%s: torn: %s is at round %d, other notes at round %d", what, name, round, got)
		}
		got = round
	}
	if seen != crashNotes {
		t.Fatalf("%s lists %d notes, want %d", what, seen, crashNotes)
	}
	return got
}

// roundZeroRepo is a repository whose crashNotes notes are committed at round 0.
func roundZeroRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	files := map[string]string{".gitignore": ".memotree/\n"}
	for i := range crashNotes {
		files[string(roundPath(i))] = roundNote(i, 0)
	}
	write(t, dir, files)
	run(t, dir, "init", "-q")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "round 0")
	return dir
}

// TestSIGKILLMidCommit kills, at random moments, a process that edits 120 notes (one
// batch) and commits them (one index update, then the commit), round after round.
// After each kill and reopen: git fsck of the real git binary is clean; git status
// reads the index; every note, HEAD and the index each hold one round, the commit of
// a round having happened entirely or not at all; the files are those the last edit
// left (a commit changes no note); and the next commit succeeds (no stale lock
// blocks it). MEMOTREE_CRASH_KILLS sets the number of kills (default 3).
func TestSIGKILLMidCommit(t *testing.T) {
	dir := roundZeroRepo(t)

	rng, seed := crashtest.Rand(t)
	kills := crashtest.Kills(t, 3)
	var span time.Duration // how long a commit takes, learnt from the first one
	for k := range kills {
		c := crashtest.Start(t, "TestCommitKillChild", "MT_COMMIT_KILL_VAULT="+dir)
		line := c.Await(t, "commit ", time.Minute)
		if span == 0 { // the second commit of the first child (the first one is slower)
			c.Await(t, "committed ", time.Minute)
			f := strings.Fields(c.Await(t, "committed ", time.Minute))
			ns, _ := strconv.ParseInt(f[2], 10, 64)
			span = time.Duration(ns) * 5 / 4 // and a little of the next edit
			line = c.Await(t, "commit ", time.Minute)
		}
		delay := time.Duration(rng.Int64N(int64(span) + 1))
		time.Sleep(delay)
		rest := c.Kill(t)
		announced, _ := strconv.Atoi(strings.Fields(line)[1])
		for _, l := range rest {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "commit" {
				announced, _ = strconv.Atoi(f[1])
			}
		}
		where := fmt.Sprintf("kill %d (MEMOTREE_CRASH_SEED=%d, %v after the commit began (a commit takes about %v), after %q)", k, seed, delay, span, append([]string{line}, rest...))

		stale := exists(dir, ".git/index.lock")
		_, r := openRecovered(t, dir)
		// Files: each note at one round; the edit of the next round may have happened.
		var notes []string
		for i := range crashNotes {
			text := read(t, dir, string(roundPath(i)))
			notes = append(notes, fmt.Sprintf("100644 %s 0\t%s", blobHash(text), roundPath(i)))
		}
		files := roundsOf(t, where+": the files", strings.Join(notes, "\n"), announced, announced+1)
		// git reads its own repository: objects, refs and the index.
		if out, err := tryGit(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil {
			t.Fatalf("%s: git fsck: %v\n%s", where, err, out)
		}
		if out, err := tryGit(dir, "status", "--porcelain"); err != nil {
			t.Fatalf("%s: git status: %v\n%s", where, err, out)
		}
		headRound := roundsOf(t, where+": HEAD", run(t, dir, "ls-tree", "-r", "HEAD"), announced-1, announced)
		indexRound := roundsOf(t, where+": the index", run(t, dir, "ls-files", "-s"), announced-1, announced)
		if headRound > indexRound || indexRound > files {
			t.Fatalf("%s: HEAD at round %d, the index at %d, the files at %d", where, headRound, indexRound, files)
		}
		// The next commit succeeds and leaves nothing pending.
		if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "after the kill"}); err != nil && !errors.Is(err, gitrepo.ErrNothingToCommit) {
			t.Fatalf("%s: the next commit: %v", where, err)
		}
		if st := porcelain(t, dir); len(st) > 0 {
			t.Fatalf("%s: pending after the next commit: %q", where, st)
		}
		if got := roundsOf(t, where+": HEAD after the next commit", run(t, dir, "ls-tree", "-r", "HEAD"), files, files); got != files {
			t.Fatalf("%s: HEAD at %d after the next commit, the files at %d", where, got, files)
		}
		t.Logf("kill %d after %v: files at round %d, HEAD at %d, index at %d, stale index.lock %v", k, delay, files, headRound, indexRound, stale)
	}
}

// TestSIGKILLHoldingIndexLock kills a commit at the worst moment for git: the new
// index is written to .git/index.lock, which is not yet renamed over the index. Git
// itself refuses to touch an index whose lock a dead process left; MemoTree knows the
// lock is its own (the owner file written before it, under the vault lock) and the
// next commit removes it and succeeds. A lock with no owner file is left alone.
func TestSIGKILLHoldingIndexLock(t *testing.T) {
	dir := roundZeroRepo(t)
	before := head(t, dir)

	c := crashtest.Start(t, "TestCommitKillChild", "MT_COMMIT_KILL_VAULT="+dir, "MT_COMMIT_KILL_AT=index.lock")
	c.Await(t, "holding index.lock", time.Minute)
	c.Kill(t)
	if !exists(dir, ".git/index.lock") || !exists(dir, ".git/MEMOTREE_INDEX_LOCK") {
		t.Fatal("the killed commit left no index.lock and owner file: the test did not reach its point")
	}
	// What git sees meanwhile: HEAD and the old index are intact.
	run(t, dir, "fsck", "--strict", "--no-progress", "--no-dangling")
	if head(t, dir) != before {
		t.Fatal("HEAD moved although the commit was killed before it")
	}
	if got := roundsOf(t, "the index", run(t, dir, "ls-files", "-s"), 0, 1); got != 0 {
		t.Fatalf("the index is at round %d, want the old one (0)", got)
	}
	if out, err := tryGit(dir, "commit", "-q", "--allow-empty", "-m", "git meanwhile"); err == nil || !strings.Contains(out, "index.lock") {
		t.Fatalf("git commit with the stale lock = %v %s; want git's own refusal (the lock is real)", err, out)
	}

	_, r := openRecovered(t, dir)
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "after the kill"}); err != nil {
		t.Fatalf("the next commit: %v", err)
	}
	if exists(dir, ".git/index.lock") || exists(dir, ".git/MEMOTREE_INDEX_LOCK") {
		t.Error("the stale lock or its owner file is still there after the next commit")
	}
	if st := porcelain(t, dir); len(st) > 0 {
		t.Fatalf("pending after the next commit: %q", st)
	}
	if got := roundsOf(t, "HEAD", run(t, dir, "ls-tree", "-r", "HEAD"), 0, 1); got != 1 {
		t.Fatalf("HEAD at round %d after the next commit, want 1", got)
	}
	run(t, dir, "fsck", "--strict", "--no-progress", "--no-dangling")

	// A lock git holds (no owner file, or one created long after a stale owner file)
	// is never taken for ours.
	write(t, dir, map[string]string{"n/000.md": "edited\n", ".git/MEMOTREE_INDEX_LOCK": "pid 1\n", ".git/index.lock": ""})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".git", "MEMOTREE_INDEX_LOCK"), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: "while git works"}); !errors.Is(err, gitrepo.ErrIndexLocked) {
		t.Fatalf("Commit while git holds index.lock = %v, want ErrIndexLocked", err)
	}
	if !exists(dir, ".git/index.lock") {
		t.Fatal("git's own index.lock was removed")
	}
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
	return err == nil
}

// pullNotes is how many notes the pull crash test merges.
const pullNotes = 80

// pullNote is note i with the edits of the side(s) named: B changes line 2 (on the
// remote), A changes line 6 (committed locally) and, for every third note, line 9
// (not committed).
func pullNote(i int, remote, local, uncommitted bool) string {
	lines := []string{fmt.Sprintf("# Note %03d", i), "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if remote {
		lines[1] = "two, as B wrote it"
	}
	if local {
		lines[5] = "six, as A wrote it"
	}
	if uncommitted && i%3 == 0 {
		lines[8] = "nine, A's work in progress"
	}
	return strings.Join(lines, "\n") + "\n"
}

func pullPath(i int) string { return fmt.Sprintf("p/%03d.md", i) }

// pullTemplate makes a bare remote holding B's edits and a clone A (the template)
// whose own commit and work in progress predate them: a pull in A is a three-way merge
// of every note.
func pullTemplate(t *testing.T) (root, template string) {
	t.Helper()
	root = t.TempDir()
	seed := filepath.Join(root, "seed")
	files := map[string]string{".gitignore": ".memotree/\njourney.yaml\n"}
	for i := range pullNotes {
		files[pullPath(i)] = pullNote(i, false, false, false)
	}
	write(t, seed, files)
	run(t, seed, "init", "-q", "-b", "main")
	run(t, seed, "add", "-A")
	run(t, seed, "commit", "-q", "-m", "seed")
	remote := filepath.Join(root, "remote.git")
	run(t, root, "clone", "-q", "--bare", seed, remote)
	template = filepath.Join(root, "a")
	run(t, root, "clone", "-q", "file://"+remote, template)

	clear(files)
	for i := range pullNotes {
		files[pullPath(i)] = pullNote(i, true, false, false)
	}
	write(t, seed, files)
	run(t, seed, "commit", "-q", "-am", "B's edits")
	run(t, seed, "push", "-q", remote, "main")

	for i := range pullNotes {
		files[pullPath(i)] = pullNote(i, false, true, false)
	}
	write(t, template, files)
	run(t, template, "commit", "-q", "-am", "A's edits")
	for i := range pullNotes {
		files[pullPath(i)] = pullNote(i, false, true, true)
	}
	write(t, template, files)
	return root, template
}

// TestPullKillChild pulls in the clone MT_PULL_KILL_VAULT, says when it is done and
// waits to be killed: the child of TestSIGKILLMidPull.
func TestPullKillChild(t *testing.T) {
	dir := os.Getenv("MT_PULL_KILL_VAULT")
	if dir == "" {
		t.Skip("child process of TestSIGKILLMidPull only")
	}
	_, r := openRecovered(t, dir)
	if at := os.Getenv("MT_PULL_KILL_AT"); at != "" {
		gitrepo.PausePackWrite(r, at, func() {
			crashtest.Say("paused at %s", at)
			select {} // held until the parent kills this process
		})
	}
	crashtest.Say("pull")
	start := time.Now()
	res, err := r.Pull(t.Context(), gitrepo.SyncOptions{})
	if err != nil {
		t.Fatalf("pull: %v", err)
	}
	crashtest.Say("pulled %s %d", res.Outcome, time.Since(start))
	time.Sleep(time.Minute)
}

// TestSIGKILLMidPull kills, at random moments, a process pulling a remote whose
// commit changed every note while the local branch has a commit of its own changing
// other lines of every note and work in progress in a third of them: a three-way merge
// of 80 notes written in one batch, then the index, then the merge commit. After each
// kill and reopen every note is either the local version or the merged one, never
// torn; git fsck is clean; and a second pull completes the merge, after which every
// note is merged, the work in progress is still pending and nothing else is.
// MEMOTREE_CRASH_KILLS sets the number of kills (default 3).
func TestSIGKILLMidPull(t *testing.T) {
	root, template := pullTemplate(t)
	rng, seed := crashtest.Rand(t)
	kills := crashtest.Kills(t, 3)
	copyClone := func(name string) string {
		dir := filepath.Join(root, name)
		if out, err := exec.Command("cp", "-a", template, dir).CombinedOutput(); err != nil {
			t.Fatalf("copy the clone: %v %s", err, out)
		}
		return dir
	}
	// How long a pull takes: one, in this process, on a copy of its own.
	_, cr := openRecovered(t, copyClone("calibrate"))
	t0 := time.Now()
	if _, err := cr.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	span := time.Since(t0) * 11 / 10
	for k := range kills {
		dir := copyClone(fmt.Sprintf("a%d", k))
		c := crashtest.Start(t, "TestPullKillChild", "MT_PULL_KILL_VAULT="+dir)
		c.Await(t, "pull", time.Minute)
		delay := time.Duration(rng.Int64N(int64(span) + 1))
		time.Sleep(delay)
		rest := c.Kill(t)
		finished := len(rest) > 0
		where := fmt.Sprintf("kill %d (MEMOTREE_CRASH_SEED=%d, %v into a pull of about %v; finished %v)", k, seed, delay, span, finished)

		merged, res := checkKilledPull(t, dir, where, finished)
		t.Logf("kill %d after %v: %d notes merged before the second pull (finished %v), then %s", k, delay, merged, finished, res.Outcome)
	}
}

// checkKilledPull reopens the clone dir a pull was killed in and checks it as
// TestSIGKILLMidPull says: every note the local version or the merged one, all alike;
// git fsck clean; a second pull completes the merge (and finds nothing new when the
// first had finished), leaving only the work in progress pending. It returns how many
// notes were merged before the second pull, and its result.
func checkKilledPull(t *testing.T, dir, where string, finished bool) (int, gitrepo.PullResult) {
	t.Helper()
	_, r := openRecovered(t, dir)
	merged := 0
	for i := range pullNotes {
		switch got := read(t, dir, pullPath(i)); got {
		case pullNote(i, false, true, true):
		case pullNote(i, true, true, true):
			merged++
		default:
			t.Fatalf("%s: %s is neither the local version nor the merged one:\n%s", where, pullPath(i), got)
		}
	}
	if merged != 0 && merged != pullNotes {
		t.Fatalf("%s: %d of %d notes merged: the batch was torn", where, merged, pullNotes)
	}
	if out, err := tryGit(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil {
		t.Fatalf("%s: git fsck: %v\n%s", where, err, out)
	}
	res, err := r.Pull(t.Context(), gitrepo.SyncOptions{})
	if err != nil {
		t.Fatalf("%s: the second pull: %v", where, err)
	}
	if finished != (res.Outcome == gitrepo.PullUpToDate) {
		t.Errorf("%s: the second pull's outcome is %s", where, res.Outcome)
	}
	var pending []string
	for i := range pullNotes {
		if got, want := read(t, dir, pullPath(i)), pullNote(i, true, true, true); got != want {
			t.Fatalf("%s: after the second pull %s reads\n%s\nwant\n%s", where, pullPath(i), got, want)
		}
		if i%3 == 0 {
			pending = append(pending, " M "+pullPath(i))
		}
	}
	if got := porcelain(t, dir); strings.Join(got, "\n") != strings.Join(pending, "\n") {
		t.Fatalf("%s: git status after the second pull:\n%s\nwant only the work in progress", where, strings.Join(got, "\n"))
	}
	run(t, dir, "merge-base", "--is-ancestor", "origin/main", "HEAD")
	if out, err := tryGit(dir, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil {
		t.Fatalf("%s: git fsck after the second pull: %v\n%s", where, err, out)
	}
	for _, i := range []int{0, 1, pullNotes - 1} { // a few: the rest share the tree
		if got, want := run(t, dir, "show", "HEAD:"+pullPath(i)), pullNote(i, true, true, false); got != want {
			t.Fatalf("%s: HEAD's %s is\n%s\nwant both commits' edits", where, pullPath(i), got)
		}
	}
	return merged, res
}

// TestKilledBranchMoveIsRepaired leaves the repository as an older MemoTree killed
// inside go-git's rewrite of the branch would (it truncated refs/heads/main, then
// wrote the new hash): an empty branch file and MemoTree's record of the move. Git
// refuses such a repository; the next open puts the branch back to the commit it had
// (the commit did not happen: all or nothing), and committing works again. A record
// whose branch still reads is simply dropped.
func TestKilledBranchMoveIsRepaired(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n"})
	commitAll(t, r, "before the crash")
	before := head(t, dir)
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged again\n",
		".git/MEMOTREE_REF_UPDATE": "refs/heads/main " + before + "\n", ".git/refs/heads/main": ""})
	if out, err := tryGit(dir, "rev-parse", "--verify", "HEAD"); err == nil {
		t.Fatalf("git reads HEAD from an empty branch file (%s): the damage is not real", out)
	}

	r = open(t, dir)
	if got := head(t, dir); got != before {
		t.Fatalf("after the next open HEAD is %s, want the commit before the crash, %s", got, before)
	}
	if exists(dir, ".git/MEMOTREE_REF_UPDATE") {
		t.Error("the record of the move is still there")
	}
	run(t, dir, "fsck", "--strict", "--no-progress", "--no-dangling")
	commitAll(t, r, "after the crash")
	if got := run(t, dir, "show", "HEAD:a.md"); got != "# A\n\nchanged again\n" {
		t.Fatalf("the next commit holds %q", got)
	}
	after := head(t, dir)

	// A record whose branch reads (the move finished, or never began) changes nothing.
	write(t, dir, map[string]string{".git/MEMOTREE_REF_UPDATE": "refs/heads/main " + before + "\n"})
	open(t, dir)
	if got := head(t, dir); got != after {
		t.Fatalf("a readable branch was moved from %s to %s", after, got)
	}
	if exists(dir, ".git/MEMOTREE_REF_UPDATE") {
		t.Error("the record of a finished move is still there")
	}
}
