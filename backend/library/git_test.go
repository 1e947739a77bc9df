package library

import (
	"errors"
	"testing"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestGitChangesAreAnnouncedOnTheBus: the library is its repository's Writer, so what
// git writes in the working tree is indexed, and every change of the repository made
// through it — creating it, a commit, also from a script's fork — goes out once on the
// bus as event.GitChanged for the library, which is all a window needs to read the
// status again.
func TestGitChangesAreAnnouncedOnTheBus(t *testing.T) {
	dir := t.TempDir()
	bus := event.NewBus()
	events, stop := bus.Subscribe(64)
	defer stop()
	l, err := Open(t.Context(), "notes", dir, Options{Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	gitChanges := func() (n int) {
		for {
			select {
			case e := <-events:
				if e.Topic == event.GitChanged {
					if got := e.Data.(event.GitChange).Library; got != "notes" {
						t.Errorf("a change announced for library %q, want notes", got)
					}
					n++
				}
			default:
				return n
			}
		}
	}

	if _, err := l.Git(); !errors.Is(err, gitrepo.ErrNotRepository) {
		t.Fatalf("Git on a plain folder: %v, want gitrepo.ErrNotRepository", err)
	}
	r, err := l.InitGit(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n := gitChanges(); n == 0 {
		t.Error("creating the repository announced nothing")
	}

	ctx := t.Context()
	if _, err := l.Apply(ctx, []vault.Change{{Path: "a.md", Data: []byte("# A\n\n[[b]]\n")}, {Path: "b.md", Data: []byte("# B\n")}}, vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	gitChanges()
	if _, err := r.Commit(ctx, gitrepo.CommitOptions{Message: "add a and b", Paths: []vpath.Path{"a.md", "b.md", ".gitignore"}}); err != nil {
		t.Fatal(err)
	}
	if n := gitChanges(); n == 0 {
		t.Error("a commit announced nothing")
	}

	// What git writes in the working tree is indexed: a discard brings the link back.
	if _, err := l.Write(ctx, "a.md", []byte("# A\n"), vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := graphOf(t, l).Backlinks("b.md"); len(got) != 0 {
		t.Fatalf("b.md still has backlinks %v after a.md lost its link", got)
	}
	if _, err := r.Discard(ctx, gitrepo.DiscardOptions{Paths: []vpath.Path{"a.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := graphOf(t, l).Backlinks("b.md"); len(got) != 1 {
		t.Errorf("after a discard restored a.md's link, b.md has backlinks %v, want a.md's: git did not write through the library", got)
	}

	// A script's fork opens the repository on disk, and its changes are announced too.
	f, err := l.Fork(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := f.Git()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Write(ctx, "c.md", []byte("# C\n"), vault.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	gitChanges()
	if _, err := fr.Commit(ctx, gitrepo.CommitOptions{Message: "add c", Paths: []vpath.Path{"c.md"}}); err != nil {
		t.Fatal(err)
	}
	if n := gitChanges(); n == 0 {
		t.Error("a commit through a fork's repository announced nothing")
	}
}
