package autosync_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/autosync"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestMain gives the tests a git configuration of their own.
func TestMain(m *testing.M) { os.Exit(vaulttest.RunIsolatedGit(m)) }

// manualClock is a clock the test moves: After's channels receive once Advance
// passes their time.
type manualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

func newClock() *manualClock {
	return &manualClock{now: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{at: c.now.Add(d), ch: ch})
	return ch
}

// Advance moves the clock by d and fires the waiters whose time came.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// git runs git in dir and returns its output; a failure fails the test.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Other", "-c", "user.email=other@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// backup is a vault cloned from a bare remote, another clone of it (another
// machine), and the vault's repository and target.
type backup struct {
	remote, other, dir string
	l                  *library.Library
	repo               *gitrepo.Repo
	target             autosync.GitTarget
}

// newBackup makes the remote, the other machine and the vault.
func newBackup(t *testing.T) *backup {
	t.Helper()
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	vaulttest.Write(t, seed, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n1.md": "one\ntwo\nthree\n", "n2.md": "alpha\nbeta\n", "n3.md": "x\n"})
	git(t, seed, "init", "-q", "-b", "main")
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-qm", "seed")
	b := &backup{remote: filepath.Join(root, "remote.git"), other: filepath.Join(root, "other"), dir: filepath.Join(root, "vault")}
	git(t, root, "clone", "-q", "--bare", seed, b.remote)
	git(t, root, "clone", "-q", "file://"+b.remote, b.other)
	git(t, root, "clone", "-q", "file://"+b.remote, b.dir)
	var err error
	if b.l, err = library.Open(t.Context(), "backup", b.dir, library.Options{Lazy: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.l.Close() })
	if b.repo, err = b.l.Git(); err != nil {
		t.Fatal(err)
	}
	b.target = autosync.GitTarget{Tracker: gitrepo.NewTracker(b.repo), Journal: b.l.Vault(),
		Options: func() (gitrepo.SyncOptions, error) { return gitrepo.SyncOptions{}, nil }}
	return b
}

// otherPushes commits files on the other machine and pushes them.
func (b *backup) otherPushes(t *testing.T, files map[string]string) string {
	t.Helper()
	git(t, b.other, "pull", "-q", "--no-rebase", "origin", "main")
	vaulttest.Write(t, b.other, files)
	git(t, b.other, "add", "-A")
	git(t, b.other, "commit", "-qm", "from the other machine")
	git(t, b.other, "push", "-q", "origin", "main")
	return git(t, b.other, "rev-parse", "HEAD")
}

func (b *backup) remoteHead(t *testing.T) string { return git(t, b.remote, "rev-parse", "main") }
func (b *backup) head(t *testing.T) string       { return git(t, b.dir, "rev-parse", "HEAD") }

// save writes a note through the vault as actor.
func (b *backup) save(t *testing.T, path, text, actor, turn string) {
	t.Helper()
	ch := vault.Change{Path: vpath.Path(path), Data: []byte(text)}
	if _, err := b.l.Apply(t.Context(), []vault.Change{ch}, vault.WriteOptions{Actor: actor, Op: "save", Turn: turn}); err != nil {
		t.Fatal(err)
	}
}

// startHTTP serves the remote over HTTP behind the password token.
func startHTTP(t *testing.T, b *backup, token string) *githttptest.Server {
	t.Helper()
	return githttptest.Start(t, filepath.Dir(b.remote), token)
}

// TestPullOnOpenAndPushOnCommit: with the settings on, opening pulls the other
// machine's commit and a commit is pushed; with them off, neither happens.
func TestPullOnOpenAndPushOnCommit(t *testing.T) {
	b := newBackup(t)
	ctx := t.Context()
	clock := newClock()
	theirs := b.otherPushes(t, map[string]string{"n2.md": "alpha\nbeta from the other machine\n"})
	off := autosync.New(b.target, autosync.Settings{}, autosync.Options{Clock: clock})
	off.Opened(ctx)
	if b.head(t) == theirs {
		t.Fatal("pulled with pull_on_open off")
	}
	x := autosync.New(b.target, autosync.Settings{PullOnOpen: true, PushOnCommit: true}, autosync.Options{Clock: clock})
	x.Opened(ctx)
	if b.head(t) != theirs {
		t.Fatalf("HEAD = %s after opening, want the other machine's %s (state %+v)", b.head(t), theirs, x.State())
	}
	if st := x.State(); !st.LastSync.Equal(clock.Now()) || st.Error != "" || st.Divergence != (gitrepo.Divergence{Tracked: true}) {
		t.Errorf("state after the pull = %+v", st)
	}
	b.save(t, "n3.md", "x, committed\n", "user", "")
	if _, err := b.repo.Commit(ctx, gitrepo.CommitOptions{Message: "mine"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	off.Committed(ctx)
	if b.remoteHead(t) == b.head(t) {
		t.Fatal("pushed with push_on_commit off")
	}
	if st := off.State(); st.Divergence.Ahead != 1 {
		t.Errorf("divergence before the push = %+v", st.Divergence)
	}
	x.Committed(ctx)
	if b.remoteHead(t) != b.head(t) {
		t.Errorf("the remote's main = %s, want the commit %s", b.remoteHead(t), b.head(t))
	}
	if st := x.State(); !st.LastSync.Equal(clock.Now()) || st.Divergence.Ahead != 0 {
		t.Errorf("state after the push = %+v", st)
	}
}

// TestTimedSyncWaitsForIdleAndCommitsOnlyThePersonsEdits: a timed sync comes once
// its interval passed and the person stopped editing; it commits the person's own
// edits (the window's and an outside editor's) with the template's message, never the
// agent's, merges the other machine's commit and pushes.
func TestTimedSyncWaitsForIdleAndCommitsOnlyThePersonsEdits(t *testing.T) {
	b := newBackup(t)
	ctx := t.Context()
	clock := newClock()
	start := clock.Now()
	s := autosync.Settings{IntervalMinutes: 5, CommitOwn: true, MessageTemplate: "backup {{date}}: {{count}} ({{notes}})"}
	x := autosync.New(b.target, s, autosync.Options{Clock: clock, IdleAfter: time.Minute})
	if got, want := x.Next(), start.Add(5*time.Minute); !got.Equal(want) {
		t.Errorf("Next = %v, want %v", got, want)
	}
	theirs := b.otherPushes(t, map[string]string{"n2.md": "alpha\nbeta from the other machine\n"})
	b.save(t, "n1.md", "one\ntwo, the person's\nthree\n", "user", "")
	b.save(t, "agent.md", "the agent's draft\n", "agent", "t1")
	vaulttest.Write(t, b.dir, map[string]string{"n3.md": "x, in Obsidian\n"})

	clock.Advance(4*time.Minute + 30*time.Second)
	x.Touched() // the person is still editing
	clock.Advance(30 * time.Second)
	x.Due(ctx)
	if b.remoteHead(t) != theirs || b.head(t) == theirs {
		t.Fatal("synced while the person was editing")
	}
	if got, want := x.Next(), start.Add(5*time.Minute+30*time.Second); !got.Equal(want) {
		t.Errorf("Next while editing = %v, want a minute after the last edit, %v", got, want)
	}
	clock.Advance(30 * time.Second)
	x.Due(ctx)
	st := x.State()
	if st.Error != "" || st.Waiting != "" || st.Committed != 2 || !st.LastSync.Equal(clock.Now()) {
		t.Fatalf("state after the timed sync = %+v", st)
	}
	if b.remoteHead(t) != b.head(t) {
		t.Error("the sync did not push")
	}
	msgs := git(t, b.dir, "log", "--format=%s", "-3")
	if !strings.Contains(msgs, "backup 2026-12-07 09:05: 2 (n1, n3)") {
		t.Errorf("commit messages:\n%s", msgs)
	}
	if files := git(t, b.dir, "log", "-1", "--format=", "--name-only", "HEAD^2"); files != "n2.md" {
		t.Errorf("the merge's second parent changed %q, want the other machine's n2.md", files)
	}
	if got := git(t, b.dir, "show", "HEAD:n3.md"); got != "x, in Obsidian" {
		t.Errorf("the outside edit committed as %q", got)
	}
	if status := git(t, b.dir, "status", "--porcelain"); status != "?? agent.md" {
		t.Errorf("git status after the sync = %q, want the agent's draft left for review", status)
	}
	if got, want := x.Next(), clock.Now().Add(5*time.Minute); !got.Equal(want) {
		t.Errorf("the next timed sync at %v, want %v", got, want)
	}
}

// TestFailingSyncSaysWhyOnceAndBacksOff: a remote that wants credentials the vault
// does not have fails with one clear message, kept (not repeated) while the retries
// back off, 30 s then doubling, each retry one attempt; once the credentials are
// there the retry succeeds and the error goes.
func TestFailingSyncSaysWhyOnceAndBacksOff(t *testing.T) {
	b := newBackup(t)
	ctx := t.Context()
	const token = "tok-autosync-test"
	srv := startHTTP(t, b, token)
	git(t, b.dir, "remote", "set-url", "origin", srv.URL("remote"))
	var mu sync.Mutex
	var creds []gitrepo.Credential
	b.target.Options = func() (gitrepo.SyncOptions, error) {
		mu.Lock()
		defer mu.Unlock()
		return gitrepo.SyncOptions{Credentials: creds}, nil
	}
	clock := newClock()
	var notes []string
	x := autosync.New(b.target, autosync.Settings{IntervalMinutes: 1}, autosync.Options{Clock: clock, OnChange: func(s autosync.State) {
		notes = append(notes, s.Error)
	}})
	clock.Advance(time.Minute)
	x.Due(ctx)
	first := x.State()
	if first.Failures != 1 || !strings.Contains(first.Error, "access token") || !first.RetryAt.Equal(clock.Now().Add(30*time.Second)) {
		t.Fatalf("state after the first failure = %+v", first)
	}
	refused := srv.Refused.Load()
	var waits []time.Duration
	for i := 0; i < 3; i++ {
		clock.Advance(10 * time.Second)
		x.Due(ctx) // not due yet: nothing is tried
		if srv.Refused.Load() != refused {
			t.Fatalf("retry %d came before its time", i+1)
		}
		st := x.State()
		clock.Advance(st.RetryAt.Sub(clock.Now()))
		x.Due(ctx)
		next := x.State()
		if next.Error != first.Error || next.Failures != st.Failures+1 {
			t.Errorf("retry %d: state %+v", i+1, next)
		}
		if srv.Refused.Load() == refused {
			t.Errorf("retry %d reached no server", i+1)
		}
		refused = srv.Refused.Load()
		waits = append(waits, next.RetryAt.Sub(clock.Now()))
	}
	if d := cmp.Diff([]time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute}, waits); d != "" {
		t.Errorf("back-off (-want +got):\n%s", d)
	}
	mu.Lock()
	creds = []gitrepo.Credential{{Protocol: "http", Host: strings.TrimPrefix(srv.Server.URL, "http://"), Token: token, AllowHTTP: true}}
	mu.Unlock()
	clock.Advance(x.State().RetryAt.Sub(clock.Now()))
	x.Due(ctx)
	if st := x.State(); st.Error != "" || st.Failures != 0 || !st.RetryAt.IsZero() || !st.LastSync.Equal(clock.Now()) {
		t.Errorf("state after the credentials came = %+v", st)
	}
	for i, n := range notes[:len(notes)-1] {
		if n != first.Error {
			t.Errorf("notice %d says %q, want the same reason %q", i, n, first.Error)
		}
	}
}

// TestNothingSyncsWhileConflictsWait: a pull that meets the person's edit leaves the
// conflict to them and the sync waits (no push, no error, no retry) until the merge is
// resolved and committed; then the commit is pushed.
func TestNothingSyncsWhileConflictsWait(t *testing.T) {
	b := newBackup(t)
	ctx := t.Context()
	clock := newClock()
	x := autosync.New(b.target, autosync.Settings{PushOnCommit: true}, autosync.Options{Clock: clock})
	b.otherPushes(t, map[string]string{"n1.md": "one\ntwo from the other machine\nthree\n"})
	b.save(t, "n1.md", "one\ntwo from here\nthree\n", "user", "")
	if _, err := b.repo.Commit(ctx, gitrepo.CommitOptions{Message: "here"}); err != nil {
		t.Fatal(err)
	}
	before := b.remoteHead(t)
	x.SyncNow(ctx)
	st := x.State()
	if !strings.Contains(st.Waiting, "conflicted") || st.Error != "" || st.Failures != 0 {
		t.Fatalf("state after a conflicting pull = %+v", st)
	}
	x.Committed(ctx)
	x.SyncNow(ctx)
	if st := x.State(); !strings.Contains(st.Waiting, "n1.md") || b.remoteHead(t) != before {
		t.Fatalf("synced while the conflict waits: %+v", st)
	}
	if _, err := b.repo.Resolve(ctx, gitrepo.ResolveOptions{Path: "n1.md", Take: gitrepo.TakeOurs}); err != nil {
		t.Fatal(err)
	}
	x.SyncNow(ctx)
	if st := x.State(); !strings.Contains(st.Waiting, "git merge --abort") {
		t.Errorf("state while the merge waits for its commit = %+v", st)
	}
	if _, err := b.repo.Commit(ctx, gitrepo.CommitOptions{Message: "merge"}); err != nil {
		t.Fatal(err)
	}
	x.Committed(ctx)
	if st := x.State(); st.Waiting != "" || b.remoteHead(t) != b.head(t) {
		t.Errorf("after the merge commit: state %+v, remote %s, head %s", st, b.remoteHead(t), b.head(t))
	}
	git(t, b.remote, "fsck", "--strict", "--no-progress")
}

// TestRunDrivesTheSyncer: Run pulls on the open event, pushes on a moved HEAD, and
// syncs when the test's clock says the interval passed.
func TestRunDrivesTheSyncer(t *testing.T) {
	b := newBackup(t)
	clock := newClock()
	changed := make(chan autosync.State, 16)
	x := autosync.New(b.target, autosync.Settings{PullOnOpen: true, PushOnCommit: true, IntervalMinutes: 10},
		autosync.Options{Clock: clock, OnChange: func(s autosync.State) {
			select {
			case changed <- s:
			default: // the test reads the repositories, not every state
			}
		}})
	events := make(chan autosync.Event)
	done := make(chan struct{})
	go func() { defer close(done); x.Run(t.Context(), events) }()
	t.Cleanup(func() { close(events); <-done })
	wait := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-changed:
			case <-time.After(time.Minute):
				t.Fatalf("no %s", what)
			}
		}
	}
	theirs := b.otherPushes(t, map[string]string{"n2.md": "alpha\nopened\n"})
	events <- autosync.Opened
	wait("pull on open", func() bool { return b.head(t) == theirs })
	b.save(t, "n3.md", "committed\n", "user", "")
	if _, err := b.repo.Commit(t.Context(), gitrepo.CommitOptions{Message: "mine"}); err != nil {
		t.Fatal(err)
	}
	events <- autosync.HeadMoved
	wait("push after the commit", func() bool { return b.remoteHead(t) == b.head(t) })
	theirs = b.otherPushes(t, map[string]string{"n3.md": "committed\nand more from the other machine\n"})
	clock.Advance(10 * time.Minute)
	wait("timed sync", func() bool { return b.head(t) == theirs })
}
