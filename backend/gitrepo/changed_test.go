package gitrepo_test

import (
	"sync/atomic"
	"testing"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestChangesOfTheRepositoryAreAnnounced: the Writer is told of every change the Repo
// makes to the repository — a commit (its branch, its index), a tag, the identity —
// and of none when the Repo only reads, so that the one place that announces changes
// (the library) neither misses one nor makes a window read the status in a loop.
func TestChangesOfTheRepositoryAreAnnounced(t *testing.T) {
	dir, _ := newRepo(t)
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	var n atomic.Int64
	r, err := gitrepo.Open(dir, writer{Vault: v, changes: &n})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	write(t, dir, map[string]string{"a.md": "# A\n\nchanged\n"})

	if _, err := r.Status(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Log(ctx, "a.md", 10); err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 0 {
		t.Fatalf("reading the status and the log announced %d changes, want none", got)
	}

	steps := []struct {
		name string
		do   func() error
	}{
		{"a commit", func() error {
			_, err := r.Commit(ctx, gitrepo.CommitOptions{Message: "change a", Paths: []vpath.Path{"a.md"}})
			return err
		}},
		{"a commit with a tag", func() error {
			write(t, dir, map[string]string{"b.md": "# B\n\nchanged\n"})
			sets, err := r.ChangeSets(ctx, v.View())
			if err != nil {
				return err
			}
			_, err = r.CommitPending(ctx, sets, gitrepo.PendingCommit{Message: "change b", Tag: "v1"})
			return err
		}},
		{"setting the identity", func() error { return r.SetIdentity("Ada Lovelace", "ada@example.org") }},
	}
	for _, s := range steps {
		before := n.Load()
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if n.Load() == before {
			t.Errorf("%s changed the repository and announced nothing", s.name)
		}
	}
}
