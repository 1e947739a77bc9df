package gitrepo_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vpath"
)

// rewriteRacily has MemoTree record the index entry of the note name, which holds
// HEAD's text (a discard of it, which has nothing to restore and stages the note's
// entry afresh from the file), then rewrites the note in place with text of the same
// size and gives it back the modification time recorded, and sets the index file's
// time to the same second: the note was saved again in the second MemoTree wrote its
// entry. git then sees the entry racily clean (not older than the index) and compares
// the content: the note is modified.
//
// The times are set, 0.1 s (the note) and 0.6 s (the index) into a second an hour
// ago. git compares the seconds of the change time too, which nothing can set: when
// the clock crossed a second between the record and the rewrite, they are done again.
func rewriteRacily(t *testing.T, dir string, r *gitrepo.Repo, name, text string) {
	t.Helper()
	full := filepath.Join(dir, name)
	old := read(t, dir, name)
	if len(old) != len(text) || old == text {
		t.Fatalf("rewriteRacily: %q is not a rewrite of %q of the same size", text, old)
	}
	second := aSecond()
	mtime := second.Add(100 * time.Millisecond)
	for attempt := 1; ; attempt++ {
		overwrite(t, full, old, mtime)
		if _, err := r.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{vpath.Path(name)}, Actor: "user"}); err != nil {
			t.Fatal(err)
		}
		e, err := readIndex(t, dir).Entry(name)
		if err != nil {
			t.Fatal(err)
		}
		if !e.ModifiedAt.Equal(mtime) || e.Size != uint32(len(old)) {
			t.Fatalf("rewriteRacily: MemoTree recorded %s modified at %v with size %d, want %v and %d", name, e.ModifiedAt, e.Size, mtime, len(old))
		}
		overwrite(t, full, text, mtime)
		if lstat(t, full).Ctim.Sec == e.CreatedAt.Unix() {
			break
		}
		if attempt == 10 {
			t.Fatalf("rewriteRacily: the clock crossed a second between the record and the rewrite of %s 10 times", name)
		}
	}
	setIndexTime(t, dir, second.Add(600*time.Millisecond))
	if got := gitSees(t, dir); !slices.Contains(got, " M "+name) {
		t.Fatalf("rewriteRacily: git status does not see %s changed: %q", name, got)
	}
}

// TestRacilyCleanEntrySurvivesEveryIndexWrite: a note rewritten with the same size in
// the second MemoTree recorded its index entry stays a pending change, for git and
// for MemoTree, after each thing MemoTree does that writes the index: a commit of
// another note (the splice, and go-git's encoder for an index of version 4), a
// discard of another note, a pull that fast-forwards, one that merges, one that stops
// on a conflict, and the conflict's resolution. Each smudges the entry as git does
// (its size set to 0), where git would otherwise trust its stat data from then on.
func TestRacilyCleanEntrySurvivesEveryIndexWrite(t *testing.T) {
	const racy, text = "n1.md", "ONE" // n1.md's "one", rewritten
	pushFromA := func(t *testing.T, a, name, old, new string) {
		edit(t, a, name, old, new)
		run(t, a, "commit", "-qam", "A edits "+name)
		run(t, a, "push", "-q", "origin", "main")
	}
	conflictOnR := func(t *testing.T, a, b string) {
		pushFromA(t, a, "r.md", "five", "five from A")
		edit(t, b, "r.md", "five", "five from B")
		run(t, b, "commit", "-qam", "B edits r")
	}
	pull := func(t *testing.T, rb *gitrepo.Repo, want string) {
		if res, err := rb.Pull(t.Context(), gitrepo.SyncOptions{}); err != nil || res.Outcome != want {
			t.Fatalf("Pull = %+v, %v; want %s", res, err, want)
		}
	}
	for _, c := range []struct {
		name string
		// prepare runs before the note is rewritten; act writes the index.
		prepare func(t *testing.T, a, b string, rb *gitrepo.Repo)
		act     func(t *testing.T, b string, rb *gitrepo.Repo)
		others  []string // git's other lines of status after act
	}{
		{"commit of another note", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			edit(t, b, "n2.md", "two", "TWO, committed")
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			commitAll(t, rb, "n2", "n2.md")
		}, nil},
		{"commit of another note, index version 4", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			run(t, b, "update-index", "--index-version", "4")
			edit(t, b, "n2.md", "two", "TWO, committed")
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			commitAll(t, rb, "n2", "n2.md")
		}, nil},
		{"discard of another note", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			edit(t, b, "n2.md", "two", "TWO, discarded")
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			if _, err := rb.Discard(t.Context(), gitrepo.DiscardOptions{Paths: []vpath.Path{"n2.md"}, Actor: "user"}); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"pull that fast-forwards", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			pushFromA(t, a, "p.md", "four", "four from A")
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			pull(t, rb, gitrepo.PullFastForward)
		}, nil},
		{"pull that merges", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			pushFromA(t, a, "p.md", "four", "four from A")
			edit(t, b, "q.md", "four", "four from B")
			run(t, b, "commit", "-qam", "B edits q")
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			pull(t, rb, gitrepo.PullMerged)
		}, nil},
		{"pull that stops on a conflict", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			conflictOnR(t, a, b)
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			pull(t, rb, gitrepo.PullConflict)
		}, []string{"UU r.md"}},
		{"resolution of a conflict", func(t *testing.T, a, b string, rb *gitrepo.Repo) {
			conflictOnR(t, a, b)
			pull(t, rb, gitrepo.PullConflict)
		}, func(t *testing.T, b string, rb *gitrepo.Repo) {
			res, err := rb.Resolve(t.Context(), gitrepo.ResolveOptions{Path: "r.md", Take: gitrepo.TakeBoth, Actor: "user"})
			if err != nil || !res.Resolved {
				t.Fatalf("Resolve = %+v, %v", res, err)
			}
		}, []string{"M  r.md"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, a, b := clones(t)
			rb := open(t, b)
			c.prepare(t, a, b, rb)
			rewriteRacily(t, b, rb, racy, strings.Replace(read(t, b, racy), "one", text, 1))
			before, err := os.Stat(filepath.Join(b, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			c.act(t, b, rb)
			if after, err := os.Stat(filepath.Join(b, ".git", "index")); err != nil || !after.ModTime().After(before.ModTime()) {
				t.Fatalf("%s did not write the index (%v)", c.name, err)
			}

			want := append([]string{" M " + racy}, c.others...)
			slices.Sort(want)
			got := gitSees(t, b)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("git status after the write (-want +got):\n%s", d)
			}
			if d := run(t, b, "--no-optional-locks", "diff", "--", racy); !strings.Contains(d, "+"+text) {
				t.Errorf("git diff does not show the rewrite of %s:\n%s", racy, d)
			}
			for name, status := range map[string]func() ([]gitrepo.Change, error){
				"Status":         func() ([]gitrepo.Change, error) { return rb.Status(t.Context()) },
				"Tracker.Status": func() ([]gitrepo.Change, error) { return gitrepo.NewTracker(rb).Status(t.Context()) },
			} {
				changes, err := status()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(changes, gitrepo.Change{Path: racy, State: gitrepo.Modified}) {
					t.Errorf("%s after the write = %+v, want %s modified", name, changes, racy)
				}
			}
			// What git sees once it has refreshed and written the index itself (plain
			// git status does) stays the same.
			run(t, b, "status", "--porcelain")
			if d := cmp.Diff(got, gitSees(t, b)); d != "" {
				t.Errorf("git status after git refreshes the index (-want +got):\n%s", d)
			}
		})
	}
}
