package gitrepo_test

import (
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
)

func TestWatchHeadSeesGitCommits(t *testing.T) {
	dir, _ := newRepo(t)
	calls := make(chan struct{}, 16)
	h, err := gitrepo.WatchHead(dir, 20*time.Millisecond, func() { calls <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	wait := func(what string) {
		t.Helper()
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("no call after %s", what)
		}
		// Let the burst end, then forget what it left.
		time.Sleep(100 * time.Millisecond)
		for len(calls) > 0 {
			<-calls
		}
	}
	write(t, dir, map[string]string{"a.md": "changed\n"})
	run(t, dir, "commit", "-q", "-am", "by git")
	wait("git commit")
	run(t, dir, "tag", "v1")
	wait("git tag")
	run(t, dir, "checkout", "-q", "-b", "other")
	wait("git checkout -b")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h.Close() // a second Close is harmless
}
