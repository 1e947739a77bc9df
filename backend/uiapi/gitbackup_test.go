package uiapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/autosync"
	"github.com/memotree/memotree/backend/uiapi"
)

// TestBackupPullsOnOpenAndPushesCommits: with a vault's backup settings saved in
// .memotree/sync.json, serving backups pulls the other machine's commit as the vault
// opens and pushes the commit made from the panel; the window reads how the backup
// stands.
func TestBackupPullsOnOpenAndPushesCommits(t *testing.T) {
	remote, other, mine := twoClones(t, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n.md": "one\n", "m.md": "m\n"})
	writeFiles(t, mine, map[string]string{".memotree/sync.json": `{"pull_on_open": true, "push_on_commit": true}`})
	writeFiles(t, other, map[string]string{"m.md": "m from the other machine\n"})
	git(t, other, "commit", "-q", "-am", "other")
	git(t, other, "push", "-q", "origin", "main")
	theirs := strings.TrimSpace(git(t, other, "rev-parse", "HEAD"))

	api, ws := openAPI(t, mine)
	events, cancel := ws.Bus().Subscribe(256)
	t.Cleanup(cancel)
	stop, err := uiapi.ServeBackups(api, uiapi.BackupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	until := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !ok() {
			select {
			case <-events:
			case <-deadline:
				t.Fatalf("no %s", what)
			}
		}
	}
	head := func(dir string) string { return strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")) }
	until("pull as the vault opened", func() bool { return head(mine) == theirs })
	if b, _ := os.ReadFile(filepath.Join(mine, "m.md")); string(b) != "m from the other machine\n" {
		t.Errorf("m.md = %q", b)
	}
	writeFiles(t, mine, map[string]string{"n.md": "one, committed\n"})
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "mine"}); err != nil {
		t.Fatal(err)
	}
	until("push after the commit", func() bool { return strings.TrimSpace(git(t, remote, "rev-parse", "main")) == head(mine) })
	var st uiapi.GitBackup
	until("the backup's state", func() bool {
		st, err = api.GitBackup("v")
		return err == nil && !st.State.LastSync.IsZero() && st.State.Divergence.Ahead == 0 && st.State.Running == ""
	})
	if !st.Serving || st.Remote != "origin" || !st.Settings.PullOnOpen || st.State.Error != "" || !st.State.Divergence.Tracked {
		t.Errorf("GitBackup = %+v", st)
	}
	saved, err := api.SaveGitBackup("v", autosync.Settings{IntervalMinutes: 100000, CommitOwn: true})
	if err != nil || saved.Settings.IntervalMinutes != autosync.MaxIntervalMinutes || saved.Settings.MessageTemplate != autosync.DefaultTemplate {
		t.Errorf("SaveGitBackup = %+v, %v", saved, err)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, ".memotree", "sync.json")); !strings.Contains(string(b), `"commit_own": true`) {
		t.Errorf("sync.json = %s", b)
	}
}

// TestBackupOfAFolderWithoutGit: a library that is no repository has nothing to back
// up, which is no error for the status bar that asks.
func TestBackupOfAFolderWithoutGit(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "# A\n"})
	api, _ := openAPI(t, dir)
	st, err := api.GitBackup("v")
	if err != nil || st.Remote != "" || st.Serving {
		t.Errorf("GitBackup = %+v, %v", st, err)
	}
}
