//go:build unix

package gitrepo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// markingHooks writes, in dir, every hook a push to a repository runs, each adding
// its name to marks.
func markingHooks(t *testing.T, dir, marks string) {
	t.Helper()
	for _, h := range []string{"pre-receive", "update", "post-receive", "post-update", "reference-transaction",
		"push-to-checkout", "proc-receive", "pre-auto-gc"} {
		helperScript(t, dir, h, marks, "")
		if err := os.Rename(filepath.Join(dir, h+".sh"), filepath.Join(dir, h)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLocalRemoteRunsNoProgramOfItsOwn pushes to and pulls from a repository on this
// machine whose configuration (which may come with the vault, from the same archive)
// names programs: hooks in its hooks folder and in the one core.hooksPath names, a
// file system monitor, a command listing its alternates' references, `git gc --auto`
// after the push, and for a working tree with receive.denyCurrentBranch
// updateInstead, a smudge filter the pushed .gitattributes asks for. The pushes and
// pulls work (the checked-out branch of a working tree is refused, as git refuses it
// by default) and none of those programs runs.
func TestLocalRemoteRunsNoProgramOfItsOwn(t *testing.T) {
	remote, a, b := clones(t)
	root := filepath.Dir(remote)
	marks := filepath.Join(root, "marks")
	markingHooks(t, filepath.Join(remote, "hooks"), marks)
	otherHooks := filepath.Join(root, "other-hooks")
	if err := os.MkdirAll(otherHooks, 0o755); err != nil {
		t.Fatal(err)
	}
	markingHooks(t, otherHooks, marks)
	program := helperScript(t, root, "program", marks, "")
	for _, kv := range [][2]string{{"core.hooksPath", otherHooks}, {"core.fsmonitor", program},
		{"core.alternateRefsCommand", program}, {"gc.auto", "1"}, {"receive.unpackLimit", "1000"}} {
		run(t, remote, "config", kv[0], kv[1])
	}
	seedObjects := filepath.Join(root, "seed", ".git", "objects")
	write(t, remote, map[string]string{"objects/info/alternates": seedObjects + "\n"})

	ra, rb := open(t, a), open(t, b)
	edit(t, a, "n1.md", "one", "ONE from A")
	commitAll(t, ra, "A's edit")
	if res, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); err != nil || res.UpToDate {
		t.Fatalf("Push = %+v, %v", res, err)
	}
	if got := strings.TrimSpace(run(t, remote, "rev-parse", "main")); got != head(t, a) {
		t.Errorf("the remote's main = %s, want A's HEAD %s", got, head(t, a))
	}
	if res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	run(t, remote, "fsck", "--strict", "--no-progress")

	// A working tree that would check a pushed branch out through its filters.
	c := filepath.Join(root, "c")
	run(t, root, "clone", "-q", remote, c)
	for _, kv := range [][2]string{{"receive.denyCurrentBranch", "updateInstead"}, {"filter.evil.smudge", program},
		{"filter.evil.clean", "cat"}, {"core.hooksPath", otherHooks}} {
		run(t, c, "config", kv[0], kv[1])
	}
	run(t, a, "remote", "add", "c", c)
	write(t, a, map[string]string{".gitattributes": "*.md filter=evil\n"})
	edit(t, a, "n2.md", "two", "TWO from A")
	commitAll(t, ra, "attributes")
	_, err := ra.Push(t.Context(), gitrepo.SyncOptions{Remote: "c"})
	if err == nil || !strings.Contains(err.Error(), "checked out") {
		t.Errorf("Push to a working tree's checked-out branch = %v, want git's refusal", err)
	}
	if d := cmp.Diff([]string(nil), marked(t, marks)); d != "" {
		t.Errorf("programs of the remote's configuration ran (-want +got):\n%s", d)
	}
}

// TestLocalRemoteIsReachedFromTheVault: a remote given as a relative folder
// ("../remote.git") is the one beside the vault, as git finds it, however MemoTree
// was started: in a folder of another repository where the same relative path names a
// decoy, with GIT_DIR, GIT_OBJECT_DIRECTORY and `git -c core.hooksPath` of that
// repository in the environment. The push lands whole in the vault's remote, the
// decoy is untouched, and no hook of the environment's runs.
func TestLocalRemoteIsReachedFromTheVault(t *testing.T) {
	remote, a, b := clones(t)
	root := filepath.Dir(remote)
	marks := filepath.Join(root, "marks")
	for _, dir := range []string{a, b} {
		run(t, dir, "remote", "set-url", "origin", "../remote.git")
	}
	other := filepath.Join(t.TempDir(), "other")
	write(t, other, map[string]string{"sub/x.md": "x\n"})
	run(t, other, "init", "-q")
	decoy := filepath.Join(filepath.Dir(other), "remote.git")
	run(t, root, "clone", "-q", "--bare", remote, decoy)
	decoyMain := run(t, decoy, "rev-parse", "main")
	hooks := filepath.Join(root, "env-hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	markingHooks(t, hooks, marks)
	ra, rb := open(t, a), open(t, b)

	t.Chdir(filepath.Join(other, "sub"))
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(other, ".git", "objects"))
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.hooksPath'='"+hooks+"'")
	edit(t, a, "n1.md", "one", "ONE from A")
	commitAll(t, ra, "A's edit")
	if res, err := ra.Push(t.Context(), gitrepo.SyncOptions{}); err != nil || res.UpToDate {
		t.Fatalf("Push = %+v, %v", res, err)
	}
	if res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil || res.Outcome != gitrepo.PullFastForward {
		t.Fatalf("Pull = %+v, %v", res, err)
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_CONFIG_PARAMETERS"} {
		unset(t, k)
	}
	if got := strings.TrimSpace(run(t, remote, "rev-parse", "main")); got != head(t, a) {
		t.Errorf("the vault's remote's main = %s, want A's HEAD %s", got, head(t, a))
	}
	run(t, remote, "fsck", "--strict", "--no-progress")
	if got := run(t, decoy, "rev-parse", "main"); got != decoyMain {
		t.Errorf("the decoy's main moved to %s", got)
	}
	if d := cmp.Diff([]string(nil), marked(t, marks)); d != "" {
		t.Errorf("hooks of the environment ran (-want +got):\n%s", d)
	}
}
