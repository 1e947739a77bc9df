package gitrepo_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
)

// gitStates is git's own status folded into the states of gitrepo, renames left
// unpaired (git status --no-renames), .memotree excluded.
func gitStates(t *testing.T, dir string) map[string]gitrepo.State {
	t.Helper()
	out := map[string]gitrepo.State{}
	for _, l := range strings.Split(run(t, dir, "--no-optional-locks", "status", "--porcelain", "-z", "-uall", "--no-renames"), "\x00") {
		if len(l) < 4 || strings.HasPrefix(l[3:], ".memotree/") {
			continue
		}
		xy, p := l[:2], l[3:]
		var s gitrepo.State
		switch {
		case xy == "??":
			s = gitrepo.Untracked
		case strings.Contains(xy, "D"):
			s = gitrepo.Deleted
		case xy[0] == 'A':
			s = gitrepo.Added
		default:
			s = gitrepo.Modified
		}
		if out[p] != gitrepo.Deleted { // "D  f" then "?? f": removed from the index, kept on disk
			out[p] = s
		}
	}
	return out
}

// ourStates is Status with renames unfolded into their deletion and creation.
func ourStates(t *testing.T, r *gitrepo.Repo) map[string]gitrepo.State {
	t.Helper()
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return statesOf(st)
}

// statesOf maps each path of a status to its state, a rename unfolded into the
// deletion of From and "renamed-to" at Path.
func statesOf(st []gitrepo.Change) map[string]gitrepo.State {
	out := map[string]gitrepo.State{}
	for _, c := range st {
		if c.State == gitrepo.Renamed {
			out[string(c.From)] = gitrepo.Deleted
			out[string(c.Path)] = "renamed-to"
			continue
		}
		out[string(c.Path)] = c.State
	}
	return out
}

// TestStatusRandomAgainstGit applies random edits of every kind — content edits,
// edits reverted, deletions, new files in new folders, staging, unstaging, removal
// from the index, executable bits, symbolic links, nested .gitignore files — and
// compares Status with `git status` after each step.
func TestStatusRandomAgainstGit(t *testing.T) {
	dir, r := newRepo(t)
	randomEdits(t, dir, 120, func(step int, what string, _ string) {
		compareWithGit(t, dir, fmt.Sprintf("step %d (%s)", step, what), ourStates(t, r))
	})
}

// TestTrackerRandomAgainstGit does the same through a Tracker told only the path
// each step touched, as the watcher tells it in the app.
func TestTrackerRandomAgainstGit(t *testing.T) {
	dir, r := newRepo(t)
	tr := gitrepo.NewTracker(r)
	randomEdits(t, dir, 120, func(step int, what, name string) {
		tr.Touch(name)
		st, err := tr.Status(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		compareWithGit(t, dir, fmt.Sprintf("step %d (%s)", step, what), statesOf(st))
	})
}

// randomEdits commits ignore files, then applies steps random edits, calling check
// after each with the step, a description and the path it touched (twice when an
// edit through a link touched two).
func randomEdits(t *testing.T, dir string, steps int, check func(step int, what, name string)) {
	t.Helper()
	write(t, dir, map[string]string{".gitignore": ".memotree/\n*.tmp\nbuild/\n", "deep/x/.gitignore": "secret.md\n!keep.tmp\n"})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "ignores")
	rng := rand.New(rand.NewPCG(7, 11))
	names := []string{"a.md", "b.md", "people/Ada.md", "people/Charles.md", "n1.md", "deep/x/y.md",
		"deep/x/secret.md", "deep/x/keep.tmp", "deep/x/drop.tmp", "build/out.md", "sp ace/ü.md",
		".obsidian/app.json", ".obsidian/plugins/p/data.json", ".trash/old.md"}
	ops := []string{"edit", "revert", "delete", "stage", "unstage", "rmcached", "chmod", "symlink", "commit", "touch"}
	for step := range steps {
		name, op := names[rng.IntN(len(names))], ops[rng.IntN(len(ops))]
		full := filepath.Join(dir, filepath.FromSlash(name))
		switch op {
		case "edit":
			touched := name
			if target, err := os.Readlink(full); err == nil { // writing through a link creates its target
				touched = path.Join(path.Dir(name), target)
			}
			write(t, dir, map[string]string{name: fmt.Sprintf("step %d\n", step)})
			check(step, op+" "+name, touched)
		case "revert":
			if out, err := tryGit(dir, "checkout", "HEAD", "--", name); err != nil && !strings.Contains(out, "did not match") {
				t.Fatalf("checkout %s: %v %s", name, err, out)
			}
		case "delete":
			os.Remove(full)
		case "stage":
			tryGit(dir, "add", "-f", "--", name)
		case "unstage":
			tryGit(dir, "reset", "-q", "--", name)
		case "rmcached":
			tryGit(dir, "rm", "-q", "--cached", "--", name)
		case "chmod":
			if fi, err := os.Lstat(full); err == nil && fi.Mode().IsRegular() {
				os.Chmod(full, fi.Mode()^0o100)
			}
		case "symlink":
			os.Remove(full)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.Symlink("target-"+fmt.Sprint(step), full); err != nil {
				t.Fatal(err)
			}
		case "commit":
			run(t, dir, "commit", "-q", "--allow-empty", "-am", fmt.Sprintf("step %d", step))
		case "touch": // new stat data, same content: Status must hash and see no change
			now := time.Now().Add(time.Duration(rng.IntN(5)) * time.Second)
			os.Chtimes(full, now, now)
		}
		check(step, op+" "+name, name)
	}
}

// compareWithGit fails the test when got differs from git's own status. A rename
// Status pairs is a deletion and an untracked or added file to git.
func compareWithGit(t *testing.T, dir, when string, got map[string]gitrepo.State) {
	t.Helper()
	want := gitStates(t, dir)
	for p, s := range got {
		if s == "renamed-to" {
			if w := want[p]; w != gitrepo.Untracked && w != gitrepo.Added {
				t.Fatalf("%s: %s paired as a rename, git says %q", when, p, w)
			}
			got[p] = want[p]
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s: status differs from git status (-git +ours):\n%s", when, d)
	}
}

// TestStatusSameSizeEdit: an edit that keeps the size and puts the modification
// time back is still seen, by its change time, as git sees it.
func TestStatusSameSizeEdit(t *testing.T) {
	dir, r := newRepo(t)
	full := filepath.Join(dir, "a.md")
	fi, err := os.Stat(full)
	if err != nil {
		t.Fatal(err)
	}
	// The files must be older than the index, and the edit's change time must differ
	// from the one the index records.
	newest := fi.ModTime()
	for p := range base {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil && st.ModTime().After(newest) {
			newest = st.ModTime()
		}
	}
	clockPast(t, newest)
	run(t, dir, "update-index", "--refresh")
	same := strings.Replace(read(t, dir, "a.md"), "first", "FIRST", 1)
	f, err := os.OpenFile(full, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(same), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(full, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	want := map[string]gitrepo.State{"a.md": gitrepo.Modified}
	if got := ourStates(t, r); !cmp.Equal(want, got) {
		t.Errorf("Status after a same-size edit with its mtime put back = %v, want %v", got, want)
	}
	if got := gitStates(t, dir); !cmp.Equal(want, got) {
		t.Errorf("git status = %v, want %v", got, want)
	}
}

// TestIndexTreeMatchesGitWriteTree checks the in-memory tree hashing against git: with
// nothing staged Status reads no tree of HEAD, which only holds if our root hash is
// exactly git's.
func TestIndexTreeMatchesGitWriteTree(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"z/y/x.md": "deep\n", "a-b.md": "dash\n", "a.md.bak/c.md": "dotted folder\n", "sp ace/ü.md": "unicode\n"})
	os.Chmod(filepath.Join(dir, "a-b.md"), 0o755)
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "shapes")
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 0 {
		t.Fatalf("Status after commit = %v, want clean", st)
	}
	tree := strings.TrimSpace(run(t, dir, "write-tree"))
	head := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD^{tree}"))
	if tree != head {
		t.Fatalf("git write-tree %s != HEAD tree %s", tree, head)
	}
	got, err := gitrepo.IndexTreeHash(r)
	if err != nil {
		t.Fatal(err)
	}
	if got != tree {
		t.Errorf("our index tree hash = %s, git write-tree = %s", got, tree)
	}
}

// TestIndexVersions reads indexes of versions 2, 3 (extended flags, from an
// intent-to-add entry) and 4 (prefix-compressed names) exactly as git lists them, and
// Status agrees with git on each.
func TestIndexVersions(t *testing.T) {
	dir, r := newRepo(t)
	write(t, dir, map[string]string{"people/Ada Lovelace.md": "x\n", "people/Ada.md": "changed\n", "intent.md": "later\n"})
	run(t, dir, "add", "people/Ada Lovelace.md")
	for _, v := range []string{"2", "3", "4"} {
		run(t, dir, "update-index", "--index-version", v)
		if v == "3" {
			run(t, dir, "add", "-N", "intent.md")
		}
		got, err := gitrepo.IndexEntries(r)
		if err != nil {
			t.Fatalf("version %s: %v", v, err)
		}
		want := strings.Split(strings.TrimRight(run(t, dir, "ls-files", "-s"), "\n"), "\n")
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("version %s: entries differ from git ls-files -s (-git +ours):\n%s", v, d)
		}
		if w, g := gitStates(t, dir), ourStates(t, r); !cmp.Equal(w, g) {
			t.Errorf("version %s: git status %v, ours %v", v, w, g)
		}
	}
}
