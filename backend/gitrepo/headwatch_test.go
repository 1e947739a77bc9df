package gitrepo_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/internal/wait"
)

func TestWatchHeadSeesGitCommits(t *testing.T) {
	dir, _ := newRepo(t)
	// Each call reads what a consumer would: HEAD, the commit of its branch and the
	// tags.
	seen := func() string {
		head, _ := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
		ref, _ := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
		commit, _ := os.ReadFile(filepath.Join(dir, ".git", ref))
		tags, _ := os.ReadDir(filepath.Join(dir, ".git", "refs", "tags"))
		var names []string
		for _, e := range tags {
			names = append(names, e.Name())
		}
		return fmt.Sprintf("HEAD %s at %s, tags %v", ref, strings.TrimSpace(string(commit)), names)
	}
	calls := make(chan string, 64)
	h, err := gitrepo.WatchHead(dir, 20*time.Millisecond, func() {
		select {
		case calls <- seen():
		default: // the test has seen enough calls
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// after runs a git command and waits for a call that saw the state it left
	// (calls left from the previous command's burst do not count).
	after := func(args ...string) {
		t.Helper()
		run(t, dir, args...)
		want := seen()
		timeout := time.After(wait.Timeout)
		var got []string
		for {
			select {
			case s := <-calls:
				if s == want {
					return
				}
				got = append(got, s)
			case <-timeout:
				t.Fatalf("no call in %v that saw %q after git %v; calls saw %q", wait.Timeout, want, args, got)
			}
		}
	}
	write(t, dir, map[string]string{"a.md": "changed\n"})
	after("commit", "-q", "-am", "by git")
	after("tag", "v1")
	after("checkout", "-q", "-b", "other")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h.Close() // a second Close is harmless
}
