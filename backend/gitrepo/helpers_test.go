package gitrepo_test

import (
	"github.com/memotree/memotree/internal/wait"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/backend/vault"
)

// gitEnv isolates the git command from the user's configuration.
func gitEnv(home string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+home, "GIT_CONFIG_GLOBAL="+filepath.Join(home, "no-gitconfig"))
}

// run runs git in dir and returns its output; a failure fails the test.
func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := tryGit(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// tryGit runs git in dir with a fixed identity.
func tryGit(dir string, args ...string) (string, error) {
	out, err := gitCmd(dir, args...).CombinedOutput()
	return string(out), err
}

// gitCmd is the git command tryGit runs.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "core.quotepath=off", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	return cmd
}

// write writes files under dir, creating folders.
func write(t testing.TB, dir string, files map[string]string) { vaulttest.Write(t, dir, files) }

// read returns a file's content, or "<absent>".
func read(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if os.IsNotExist(err) {
		return "<absent>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// base is the committed content of the test repositories.
var base = map[string]string{
	"a.md":              "# A\n\nfirst line\nsecond line\n",
	"b.md":              "# B\r\n\r\nwindows line endings\r\nno final newline",
	"people/Ada.md":     "---\nentity type: person\n---\n\n# Ada\n",
	"people/Charles.md": "# Charles\n",
	"attachments/x.png": "\x89PNG\x00\x01binary",
}

// newRepo commits base with the git command and opens it through a vault.
func newRepo(t testing.TB) (string, *gitrepo.Repo) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	write(t, dir, base)
	run(t, dir, "init", "-q")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "initial")
	return dir, open(t, dir)
}

// open opens dir as a vault and a repository.
func open(t testing.TB, dir string) *gitrepo.Repo {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	r, err := gitrepo.Open(dir, writer{Vault: v})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// porcelain returns git status --porcelain as sorted lines, .memotree excluded.
func porcelain(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(run(t, dir, "status", "--porcelain", "-uall"), "\n") {
		if l != "" && !strings.Contains(l, ".memotree/") {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// lines splits output into its non-empty lines, sorted.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// writer is what the tests' repositories write their working tree through: the vault
// itself, counting the changes of the repository it is told of (in the product the
// library is the Writer, and announces them).
type writer struct {
	*vault.Vault
	changes *atomic.Int64
}

// GitChanged counts a change of the repository.
func (w writer) GitChanged() {
	if w.changes != nil {
		w.changes.Add(1)
	}
}

// releaseIndexLockAfterTries removes the git command's index.lock in the repository
// at dir once a MemoTree write of the index has tried to take it tries times (its
// owner record of index.lock, MEMOTREE_INDEX_LOCK, is created at each try): a write
// that does not wait for the lock fails before then.
func releaseIndexLockAfterTries(t *testing.T, dir string, tries int) {
	t.Helper()
	releaseLockAfterTries(t, dir, "MEMOTREE_INDEX_LOCK", "index.lock", tries)
}

// releaseLockAfterTries removes the git command's lock (a path under .git) in the
// repository at dir once MemoTree's record, created in .git at each try to take the
// lock, has been created tries times, as seen by a watcher of the folder.
func releaseLockAfterTries(t *testing.T, dir, record, lock string, tries int) {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Add(filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	go func() {
		seen := 0
		for e := range w.Events {
			if filepath.Base(e.Name) == record && e.Has(fsnotify.Create) {
				if seen++; seen == tries {
					os.Remove(filepath.Join(dir, ".git", filepath.FromSlash(lock)))
					return
				}
			}
		}
	}()
}

// clockPast waits until a file written now gets a modification time after ts: the file
// system's clock, in its own granularity, has passed ts.
func clockPast(t *testing.T, ts time.Time) {
	t.Helper()
	probe := filepath.Join(t.TempDir(), "clock")
	wait.For(t, "the file system's clock to pass "+ts.String(), func() bool {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(probe)
		return err == nil && fi.ModTime().After(ts)
	})
}
