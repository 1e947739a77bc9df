package vaulttest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestIdentity is the name and email IsolateGit's global configuration gives.
const (
	TestName  = "MemoTree Test"
	TestEmail = "test@memotree.invalid"
)

// identityVars are the environment variables that name who signs a commit.
var identityVars = []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL",
	"GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME"}

// RunIsolatedGit runs a package's tests with git's configuration their own, for the
// git command and for MemoTree alike: no system file, a global file (in a temporary
// folder) that names TestName and TestEmail, and no identity in the environment. A
// test that needs another configuration changes the environment with t.Setenv. Call
// it from TestMain: os.Exit(vaulttest.RunIsolatedGit(m)).
func RunIsolatedGit(m *testing.M) int {
	dir, err := os.MkdirTemp("", "memotree-gitconfig-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "isolate git:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	global := filepath.Join(dir, "gitconfig")
	text := fmt.Sprintf("[user]\n\tname = %s\n\temail = %s\n[commit]\n\tgpgsign = false\n[init]\n\tdefaultBranch = main\n", TestName, TestEmail)
	if err := os.WriteFile(global, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "isolate git:", err)
		return 1
	}
	for _, v := range identityVars {
		os.Unsetenv(v)
	}
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", global)
	return m.Run()
}
