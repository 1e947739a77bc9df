package uiapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/uiapi"
)

func TestGitPushPullFromThePanel(t *testing.T) {
	root := t.TempDir()
	seed := filepath.Join(root, "seed")
	writeFiles(t, seed, map[string]string{".gitignore": ".memotree/\njourney.yaml\n", "n.md": "one\ntwo\nthree\n", "m.md": "m\n"})
	git(t, seed, "init", "-q", "-b", "main")
	git(t, seed, "add", "-A")
	git(t, seed, "commit", "-q", "-m", "seed")
	remote := filepath.Join(root, "remote.git")
	git(t, root, "clone", "-q", "--bare", seed, remote)
	other, mine := filepath.Join(root, "other"), filepath.Join(root, "mine")
	git(t, root, "clone", "-q", "file://"+remote, other)
	git(t, root, "clone", "-q", "file://"+remote, mine)
	api, _ := openAPI(t, mine)

	st, err := api.GitStatus("v")
	if err != nil || len(st.Remotes) != 1 || st.Remotes[0].Name != "origin" || st.Merging {
		t.Fatalf("GitStatus = %+v, %v", st, err)
	}
	// Another machine pushes; here the same line is edited, uncommitted.
	writeFiles(t, other, map[string]string{"n.md": "one\nTWO from the other machine\nthree\n", "m.md": "m changed\n"})
	git(t, other, "commit", "-q", "-am", "other")
	git(t, other, "push", "-q", "origin", "main")
	writeFiles(t, mine, map[string]string{"n.md": "one\ntwo edited here\nthree\n"})

	res, err := api.GitPull("v")
	if err != nil || res.Outcome != gitrepo.PullFastForward || len(res.Conflicts) != 1 || res.Conflicts[0] != "n.md" {
		t.Fatalf("GitPull = %+v, %v", res, err)
	}
	b, _ := os.ReadFile(filepath.Join(mine, "n.md"))
	if !strings.Contains(string(b), "two edited here") || !strings.Contains(string(b), "TWO from the other machine") {
		t.Errorf("n.md lost a side:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "m.md")); string(b) != "m changed\n" {
		t.Errorf("m.md = %q", b)
	}
	// Resolve, commit from the panel, push: the other machine gets it.
	writeFiles(t, mine, map[string]string{"n.md": "one\nTWO, edited on both\nthree\n"})
	if _, err := api.GitCommit("v", uiapi.GitCommitRequest{Message: "Resolve n"}); err != nil {
		t.Fatal(err)
	}
	if res, err := api.GitPush("v"); err != nil || res.UpToDate {
		t.Fatalf("GitPush = %+v, %v", res, err)
	}
	git(t, other, "pull", "-q", "origin", "main")
	if b, _ := os.ReadFile(filepath.Join(other, "n.md")); string(b) != "one\nTWO, edited on both\nthree\n" {
		t.Errorf("the other machine's n.md = %q", b)
	}
	git(t, remote, "fsck", "--strict", "--no-progress")
}
