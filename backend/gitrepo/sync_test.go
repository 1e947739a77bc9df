package gitrepo_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/githttptest"
	"github.com/memotree/memotree/backend/internal/gitsshtest"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

// clones makes a bare remote with base committed and two clones of it over file://.
func clones(t *testing.T) (remote, a, b string) {
	t.Helper()
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	notes := map[string]string{".gitignore": ".memotree/\njourney.yaml\n"}
	for i, name := range []string{"n1.md", "n2.md", "n3.md", "p.md", "q.md", "r.md"} {
		notes[name] = strings.Repeat(name+" line\n", i+1) + "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	}
	write(t, seed, notes)
	run(t, seed, "init", "-q", "-b", "main")
	run(t, seed, "add", "-A")
	run(t, seed, "commit", "-q", "-m", "seed")
	remote = filepath.Join(root, "remote.git")
	run(t, root, "clone", "-q", "--bare", seed, remote)
	a, b = filepath.Join(root, "a"), filepath.Join(root, "b")
	run(t, root, "clone", "-q", "file://"+remote, a)
	run(t, root, "clone", "-q", "file://"+remote, b)
	return remote, a, b
}

func edit(t *testing.T, dir, name, old, new string) {
	t.Helper()
	text := read(t, dir, name)
	if !strings.Contains(text, old) {
		t.Fatalf("%s has no %q", name, old)
	}
	write(t, dir, map[string]string{name: strings.Replace(text, old, new, 1)})
}

func commitAll(t *testing.T, r *gitrepo.Repo, msg string, paths ...vpath.Path) {
	t.Helper()
	if _, err := r.Commit(t.Context(), gitrepo.CommitOptions{Message: msg, Paths: paths}); err != nil {
		t.Fatal(err)
	}
}

func head(t *testing.T, dir string) string {
	return strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
}

func TestPushAndFastForwardPull(t *testing.T) {
	remote, a, b := clones(t)
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()
	if rs, err := ra.Remotes(); err != nil || len(rs) != 1 || rs[0].Name != "origin" || rs[0].URL != "file://"+remote {
		t.Fatalf("Remotes = %v, %v", rs, err)
	}
	if res, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil || !res.UpToDate {
		t.Fatalf("Push with nothing new = %+v, %v", res, err)
	}
	edit(t, a, "n1.md", "one", "ONE from A")
	edit(t, a, "n2.md", "two", "TWO from A")
	edit(t, a, "n3.md", "three", "THREE from A")
	if _, err := ra.Commit(ctx, gitrepo.CommitOptions{Message: "A's edits", Tag: "from-a"}); err != nil {
		t.Fatal(err)
	}
	if res, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil || res.UpToDate || res.Branch != "main" {
		t.Fatalf("Push = %+v, %v", res, err)
	}
	if got := strings.TrimSpace(run(t, remote, "rev-parse", "from-a")); got != head(t, a) {
		t.Errorf("the tag on the remote = %q, want A's HEAD", got)
	}
	if got := strings.TrimSpace(run(t, remote, "rev-parse", "main")); got != head(t, a) {
		t.Fatalf("the remote's main = %s, want A's HEAD %s", got, head(t, a))
	}

	// B edits other lines of n2 and the same line of n3, without committing.
	edit(t, b, "n2.md", "six", "six from B")
	edit(t, b, "n3.md", "three", "three from B")
	res, err := rb.Pull(ctx, gitrepo.SyncOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != gitrepo.PullFastForward || res.Head != head(t, a) || head(t, b) != head(t, a) {
		t.Errorf("Pull = %+v; B at %s, A at %s", res, head(t, b), head(t, a))
	}
	if d := cmp.Diff([]vpath.Path{"n3.md"}, res.Conflicts); d != "" {
		t.Errorf("conflicts (-want +got):\n%s", d)
	}
	if got := read(t, b, "n1.md"); !strings.Contains(got, "ONE from A") {
		t.Errorf("n1.md not updated: %q", got)
	}
	n2 := read(t, b, "n2.md")
	if !strings.Contains(n2, "TWO from A") || !strings.Contains(n2, "six from B") || strings.Contains(n2, "<<<<<<<") {
		t.Errorf("n2.md should hold both edits, merged cleanly:\n%s", n2)
	}
	n3 := read(t, b, "n3.md")
	if !strings.Contains(n3, "<<<<<<< your version\nthree from B\n=======\nTHREE from A\n>>>>>>> origin/main\n") {
		t.Errorf("n3.md should keep both versions:\n%s", n3)
	}
	// git agrees: B's edits are pending against A's commit, and n3.md waits as a
	// `git stash pop` that conflicts leaves a file: unmerged, B's version as ours.
	if d := cmp.Diff([]string{" M n2.md", "UU n3.md"}, porcelain(t, b)); d != "" {
		t.Errorf("git status in B (-want +got):\n%s", d)
	}
	if ours := run(t, b, "show", ":2:n3.md"); !strings.Contains(ours, "three from B") || strings.Contains(ours, "THREE") {
		t.Errorf("stage 2 of n3.md is not B's version:\n%s", ours)
	}
	if _, err := rb.Pull(ctx, gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrUnresolved) {
		t.Errorf("a Pull while n3.md is conflicted = %v, want ErrUnresolved", err)
	}
	if res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "n3.md", Take: gitrepo.TakeOurs}); err != nil || !res.Resolved {
		t.Fatalf("Resolve n3.md = %+v, %v", res, err)
	}
	if d := run(t, b, "diff", "--", "n2.md"); !strings.Contains(d, "-six\n+six from B\n") || strings.Contains(d, "\n+TWO") || strings.Contains(d, "\n-two") {
		t.Errorf("B's pending diff of n2.md:\n%s", d)
	}
	run(t, b, "fsck", "--strict", "--no-progress")
	if res, err := rb.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullUpToDate {
		t.Errorf("a second Pull = %+v, %v", res, err)
	}
}

// TestPullWaitsForAGitCommandsIndexLock: `git status` (a person's terminal, Obsidian
// Git) takes .git/index.lock for a moment to refresh the index. A pull that reaches
// its write of the index meanwhile waits for the lock to go, as a commit does, rather
// than failing with ErrIndexLocked.
func TestPullWaitsForAGitCommandsIndexLock(t *testing.T) {
	_, a, b := clones(t)
	rb := open(t, b)
	edit(t, a, "n1.md", "one", "ONE from A")
	run(t, a, "commit", "-qam", "A")
	run(t, a, "push", "-q", "origin", "main")
	write(t, b, map[string]string{".git/index.lock": ""})
	// The lock goes once the pull has tried to write the index twice: a pull that
	// does not wait fails at the first.
	releaseIndexLockAfterTries(t, b, 2)
	res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullFastForward || head(t, b) != head(t, a) {
		t.Fatalf("Pull while git status held index.lock = %+v, %v", res, err)
	}
	if got := porcelain(t, b); len(got) != 0 {
		t.Errorf("git status after the pull = %q", got)
	}
	run(t, b, "fsck", "--strict", "--no-progress")
}

func TestDivergedPullMergesOrWaits(t *testing.T) {
	_, a, b := clones(t)
	ra, rb := open(t, a), open(t, b)
	ctx := t.Context()

	// Different files on each side: a merge commit with two parents.
	edit(t, a, "p.md", "four", "four from A")
	commitAll(t, ra, "A edits p")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	edit(t, b, "q.md", "four", "four from B")
	commitAll(t, rb, "B edits q")
	if _, err := rb.Push(ctx, gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrRejected) {
		t.Fatalf("Push of a diverged branch = %v, want ErrRejected", err)
	}
	res, err := rb.Pull(ctx, gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullMerged || len(res.Conflicts) != 0 {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	if parents := strings.Fields(run(t, b, "rev-list", "--parents", "-1", "HEAD")); len(parents) != 3 {
		t.Errorf("the merge commit has parents %v", parents[1:])
	}
	if !strings.Contains(read(t, b, "p.md"), "four from A") || !strings.Contains(read(t, b, "q.md"), "four from B") {
		t.Error("the merge lost a side")
	}
	if got := porcelain(t, b); len(got) != 0 {
		t.Errorf("git status after the merge = %q", got)
	}
	run(t, b, "fsck", "--strict", "--no-progress")
	if _, err := rb.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if res, err := ra.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("A's Pull = %+v, %v", res, err)
	}
	if head(t, a) != head(t, b) {
		t.Error("A and B differ after syncing")
	}

	// The same line committed on both sides: the merge waits for the person.
	edit(t, a, "r.md", "five", "five from A")
	commitAll(t, ra, "A edits r")
	if _, err := ra.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	edit(t, b, "r.md", "five", "five from B")
	commitAll(t, rb, "B edits r")
	res, err = rb.Pull(ctx, gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullConflict || !cmp.Equal(res.Conflicts, []vpath.Path{"r.md"}) {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	r := read(t, b, "r.md")
	if !strings.Contains(r, "five from B\n=======\nfive from A\n") {
		t.Errorf("r.md:\n%s", r)
	}
	if strings.TrimSpace(read(t, b, ".git/MERGE_HEAD")) != head(t, a) {
		t.Error("MERGE_HEAD does not name A's commit")
	}
	if _, err := rb.Push(ctx, gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrMerging) {
		t.Errorf("Push during a merge = %v", err)
	}
	// The person resolves and commits: a merge commit that git accepts.
	if _, err := rb.Commit(ctx, gitrepo.CommitOptions{Message: "too early"}); !errors.Is(err, gitrepo.ErrUnresolved) || !strings.Contains(err.Error(), "r.md") {
		t.Errorf("a commit before resolving = %v, want ErrUnresolved naming r.md", err)
	}
	byHand := strings.Replace(read(t, a, "r.md"), "five from A", "five from A and B", 1)
	if res, err := rb.Resolve(ctx, gitrepo.ResolveOptions{Path: "r.md", Content: &byHand}); err != nil || !res.Resolved {
		t.Fatalf("Resolve by hand = %+v, %v", res, err)
	}
	commitAll(t, rb, "Resolve r", "r.md")
	if parents := strings.Fields(run(t, b, "rev-list", "--parents", "-1", "HEAD")); len(parents) != 3 || parents[2] != head(t, a) {
		t.Errorf("the resolving commit's parents = %v", parents)
	}
	if _, err := os.Stat(filepath.Join(b, ".git", "MERGE_HEAD")); !os.IsNotExist(err) {
		t.Error("MERGE_HEAD left after the commit")
	}
	if got := porcelain(t, b); len(got) != 0 {
		t.Errorf("git status after resolving = %q", got)
	}
	run(t, b, "fsck", "--strict", "--no-progress")
	if _, err := rb.Push(ctx, gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if res, err := ra.Pull(ctx, gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward || !strings.Contains(read(t, a, "r.md"), "five from A and B") {
		t.Errorf("A's Pull = %+v, %v", res, err)
	}
}

func TestSyncWithoutRemote(t *testing.T) {
	_, r := newRepo(t)
	if _, err := r.Pull(t.Context(), gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrNoRemote) {
		t.Errorf("Pull without a remote = %v", err)
	}
	if _, err := r.Push(t.Context(), gitrepo.SyncOptions{Remote: "backup"}); !errors.Is(err, gitrepo.ErrNoRemote) {
		t.Errorf("Push to a missing remote = %v", err)
	}
}

func TestPullUnitesTheJourneys(t *testing.T) {
	_, a, b := clones(t)
	// journey.yaml tracked, as in a real vault: both machines append to it.
	write(t, a, map[string]string{".gitignore": ".memotree/\n", "journey.yaml": entry("first")})
	run(t, a, "add", "-A")
	run(t, a, "commit", "-q", "-m", "track the journey")
	run(t, a, "push", "-q", "origin", "main")
	run(t, b, "pull", "-q", "origin", "main")
	ra, rb := open(t, a), open(t, b)
	write(t, a, map[string]string{"journey.yaml": entry("first") + entry("on A")})
	commitAll(t, ra, "A works")
	if _, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, b, map[string]string{"journey.yaml": entry("first") + entry("on B")})
	commitAll(t, rb, "B works")
	res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullMerged {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	// B's own pull appends its entry too; both machines' entries are kept, none torn.
	j := read(t, b, "journey.yaml")
	if !strings.HasPrefix(j, entry("first")+entry("on B")+entry("on A")) {
		t.Errorf("journey.yaml after the pull:\n%s", j)
	}
}

// entry is one journey entry as journey.yaml holds it.
func entry(op string) string {
	return "- time: 2026-11-22T10:00:00Z\n  actor: user\n  op: " + op + "\n  outcome: ok\n"
}

// servedClones points both clones' origin at url, opens them, and commits in a an edit
// of n1.md that puts line in place of "one", for a to push.
func servedClones(t *testing.T, a, b, url, line string) (ra, rb *gitrepo.Repo) {
	t.Helper()
	for _, dir := range []string{a, b} {
		run(t, dir, "remote", "set-url", "origin", url)
	}
	ra, rb = open(t, a), open(t, b)
	edit(t, a, "n1.md", "one", line)
	commitAll(t, ra, line)
	return ra, rb
}

// TestSyncOverHTTPSignsIn pushes and pulls through git's own HTTP backend behind a
// server that wants a password: without one, or with a wrong one, the person is told
// how to sign in; a token signs in; so do credentials from git's credential helper.
func TestSyncOverHTTPSignsIn(t *testing.T) {
	home := t.TempDir() // no credential helper of the machine's user
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	write(t, home, map[string]string{".gitconfig": "[user]\n\tname = Test\n\temail = test@example.com\n"})
	remote, a, b := clones(t)
	const token = "tok-3f9a-memotree-test"
	srv := githttptest.Start(t, filepath.Dir(remote), token)
	ra, rb := servedClones(t, a, b, srv.URL("remote"), "ONE over HTTP")

	host := strings.TrimPrefix(srv.Server.URL, "http://")
	creds := func(tok string) []gitrepo.Credential {
		return []gitrepo.Credential{{Protocol: "http", Host: host, Token: tok, AllowHTTP: true}}
	}
	for _, tok := range []string{"", "wrong-token"} {
		_, err := ra.Push(t.Context(), gitrepo.SyncOptions{Credentials: creds(tok)})
		if !errors.Is(err, gitrepo.ErrSignIn) || !strings.Contains(err.Error(), "access token") {
			t.Errorf("push with token %q = %v, want ErrSignIn saying how to sign in", tok, err)
		}
		if strings.Contains(fmt.Sprint(err), token) || tok != "" && strings.Contains(fmt.Sprint(err), tok) {
			t.Errorf("the error shows a token: %v", err)
		}
	}
	if srv.Refused.Load() < 2 {
		t.Errorf("the server refused %d requests; the pushes never reached it", srv.Refused.Load())
	}
	if res, err := ra.Push(t.Context(), gitrepo.SyncOptions{Credentials: creds(token)}); err != nil || res.UpToDate {
		t.Fatalf("push with the token = %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(run(t, remote, "rev-parse", "main")), head(t, a); got != want {
		t.Errorf("the remote's main = %s, want %s", got, want)
	}

	// No token: git's credential helper has the password for this host, served over
	// HTTPS (a plain HTTP remote never gets the helper's password).
	tlsSrv := githttptest.StartTLS(t, filepath.Dir(remote), token)
	run(t, b, "remote", "set-url", "origin", tlsSrv.URL("remote"))
	store := filepath.Join(home, "credentials")
	u := strings.Replace(tlsSrv.URL(""), "https://", "https://tester:"+token+"@", 1)
	write(t, home, map[string]string{"credentials": strings.TrimSuffix(u, "/.git") + "\n"})
	run(t, home, "config", "--file", filepath.Join(home, ".gitconfig"), "credential.helper", "store --file="+store)
	res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{CABundle: tlsSrv.CA()})
	if err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("pull with the credential helper's password = %+v, %v", res, err)
	}
	if got := read(t, b, "n1.md"); !strings.Contains(got, "ONE over HTTP") {
		t.Errorf("n1.md after the pull = %q", got)
	}
	run(t, remote, "fsck", "--strict", "--no-progress")
}

// TestSyncOverSSHWithTheAgent pushes and pulls through an SSH server that runs git's
// own pack commands and lets in one key, held by a real ssh-agent: an unknown host and
// a missing agent are explained; the agent's key signs in.
func TestSyncOverSSHWithTheAgent(t *testing.T) {
	for _, bin := range []string{"ssh-agent", "ssh-add", "ssh-keygen"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s: %v (Debian's openssh-client package installs it)", bin, err)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	write(t, home, map[string]string{".gitconfig": "[user]\n\tname = Test\n\temail = test@example.com\n"})
	t.Setenv("SSH_KNOWN_HOSTS", "")
	key := filepath.Join(home, "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "memotree-test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pubText, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey(pubText)
	if err != nil {
		t.Fatal(err)
	}
	remote, a, b := clones(t)
	srv := gitsshtest.Start(t, filepath.Dir(remote), pub)
	ra, rb := servedClones(t, a, b, srv.URL("remote"), "ONE over SSH")

	// No agent and no key in ~/.ssh (the key is elsewhere).
	t.Setenv("SSH_AUTH_SOCK", "")
	if _, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); !errors.Is(err, gitrepo.ErrSignIn) || !strings.Contains(err.Error(), "agent") {
		t.Errorf("push without an SSH agent = %v, want ErrSignIn", err)
	}
	// An agent holding the key, but a host this machine has never trusted.
	sock := filepath.Join(home, "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	// The socket file appears before ssh-agent listens on it: wait until it answers.
	wait.Until(t, "ssh-agent to answer on its socket", func() error {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
		}
		return err
	})
	t.Setenv("SSH_AUTH_SOCK", sock)
	if out, err := exec.Command("ssh-add", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
	_, err = ra.Push(t.Context(), gitrepo.SyncOptions{})
	if !errors.Is(err, gitrepo.ErrHostKey) || !strings.Contains(err.Error(), "known_hosts") {
		t.Errorf("push to an unknown host = %v, want ErrHostKey naming known_hosts", err)
	}
	write(t, home, map[string]string{".ssh/known_hosts": srv.KnownHostsLine() + "\n"})
	if res, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); err != nil || res.UpToDate {
		t.Fatalf("push with the agent's key = %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(run(t, remote, "rev-parse", "main")), head(t, a); got != want {
		t.Errorf("the remote's main = %s, want %s", got, want)
	}
	res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{})
	if err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("pull over SSH = %+v, %v", res, err)
	}
	if got := read(t, b, "n1.md"); !strings.Contains(got, "ONE over SSH") {
		t.Errorf("n1.md after the pull = %q", got)
	}

	// Without an agent, the usual key file signs in, as with ssh itself.
	t.Setenv("SSH_AUTH_SOCK", "")
	priv, err := os.ReadFile(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), priv, 0o600); err != nil {
		t.Fatal(err)
	}
	edit(t, b, "n2.md", "one", "ONE with the key file")
	commitAll(t, rb, "with the key file")
	if res, err := rb.Push(t.Context(), gitrepo.SyncOptions{}); err != nil || res.UpToDate {
		t.Fatalf("push with ~/.ssh/id_ed25519 = %+v, %v", res, err)
	}
	if got, want := strings.TrimSpace(run(t, remote, "rev-parse", "main")), head(t, b); got != want {
		t.Errorf("the remote's main = %s, want %s", got, want)
	}
	run(t, remote, "fsck", "--strict", "--no-progress")
}
