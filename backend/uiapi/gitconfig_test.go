package uiapi_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/uiapi"
)

// TestGitConfigErrorsNeverQuoteAnIncludedFile: a vault's .git/config that includes a
// file outside the vault which git cannot read as configuration (an access token):
// the window's status, commit and pull are refused with an error naming the file and
// the line, never a word of the file.
func TestGitConfigErrorsNeverQuoteAnIncludedFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"n.md": "one\n"})
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	git(t, dir, "remote", "add", "origin", "https://example.invalid/notes.git")
	secret := filepath.Join(t.TempDir(), "token.txt")
	writeFiles(t, filepath.Dir(secret), map[string]string{"token.txt": "Hunter2Secret XyzzyPlugh\n"})
	git(t, dir, "config", "include.path", secret)
	writeFiles(t, dir, map[string]string{"n.md": "two\n"})
	api, _ := openAPI(t, dir)

	_, statusErr := api.GitStatus("v")
	_, commitErr := api.GitCommit("v", uiapi.GitCommitRequest{Message: "m"})
	_, pullErr := api.GitPull("v")
	for what, err := range map[string]error{"GitStatus": statusErr, "GitCommit": commitErr, "GitPull": pullErr} {
		msg := strings.ToLower(fmt.Sprint(err))
		switch {
		case err == nil || !strings.Contains(err.Error(), secret+", line 1:"):
			t.Errorf("%s = %v, want an error naming %s and line 1", what, err, secret)
		case strings.Contains(msg, "hunter2") || strings.Contains(msg, "xyzzy"):
			t.Errorf("%s quotes the included file: %v", what, err)
		}
	}
}
