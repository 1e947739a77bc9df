package gitrepo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// gitRenames is what git makes of the working tree against HEAD with rename detection
// (`git add -A` into a scratch index, then `git diff --cached -M --name-status`): each
// line "R old new", "D path", "A path" or "M path", sorted, the journey and MemoTree's
// own files left out. The repository's own index is not touched.
func gitRenames(t *testing.T, dir string) []string {
	t.Helper()
	scratch := filepath.Join(t.TempDir(), "index")
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil {
		if err := os.WriteFile(scratch, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	gitWith(t, dir, env, "add", "-A")
	fields := strings.Split(gitWith(t, dir, env, "diff", "--cached", "-M", "--name-status", "-z", "HEAD"), "\x00")
	var out []string
	for i := 0; i+1 < len(fields); {
		status := fields[i]
		if strings.HasPrefix(status, "R") {
			out = append(out, "R "+fields[i+1]+" "+fields[i+2])
			i += 3
			continue
		}
		if p := fields[i+1]; p != string(vault.JourneyPath) {
			out = append(out, status[:1]+" "+p)
		}
		i += 2
	}
	sort.Strings(out)
	return out
}

// ourRenames is Status in gitRenames's form.
func ourRenames(t *testing.T, r *gitrepo.Repo) []string {
	t.Helper()
	st, err := r.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range st {
		if c.Path == vault.JourneyPath {
			continue
		}
		switch c.State {
		case gitrepo.Renamed:
			out = append(out, "R "+string(c.From)+" "+string(c.Path))
		case gitrepo.Deleted:
			out = append(out, "D "+string(c.Path))
		case gitrepo.Added, gitrepo.Untracked:
			out = append(out, "A "+string(c.Path))
		default:
			out = append(out, "M "+string(c.Path))
		}
	}
	sort.Strings(out)
	return out
}

// words draws a line of n random words from a large vocabulary, so that two notes
// share almost no line by chance.
func words(rng *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%05d", rng.IntN(100000))
	}
	return strings.Join(w, " ")
}

// randomNote is a note of lines random lines.
func randomNote(rng *rand.Rand, lines int) string {
	var b strings.Builder
	b.WriteString("---\ntags: [x]\n---\n")
	for range lines {
		b.WriteString(words(rng, 2+rng.IntN(8)) + "\n")
	}
	return b.String()
}

// reword replaces about frac of the lines of a note by new ones.
func reword(rng *rand.Rand, text string, frac float64) string {
	ls := strings.SplitAfter(text, "\n")
	for i := range ls {
		if ls[i] != "" && rng.Float64() < frac {
			ls[i] = words(rng, 2+rng.IntN(8)) + "\n"
		}
	}
	return strings.Join(ls, "")
}

// TestRenamesAgreeWithGit moves notes with edits of every size (none, a little, about
// half, most), to the same file name elsewhere and to new names, deletes some, creates
// others, converts one to CRLF line endings and renames a binary file, and compares
// the renames Status finds with those of `git diff -M` on the same working tree, for
// several random vaults.
func TestRenamesAgreeWithGit(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			dir := filepath.Join(t.TempDir(), "vault")
			files := map[string]string{"bin/x.png": "\x89PNG\x00" + words(rng, 200)}
			var notes []string
			for i := range 30 {
				p := fmt.Sprintf("n%d/note %02d.md", i%3, i)
				files[p] = randomNote(rng, 5+rng.IntN(40))
				notes = append(notes, p)
			}
			write(t, dir, files)
			run(t, dir, "init", "-q")
			run(t, dir, "add", "-A")
			run(t, dir, "commit", "-q", "-m", "initial")
			r := open(t, dir)
			rng.Shuffle(len(notes), func(i, j int) { notes[i], notes[j] = notes[j], notes[i] })
			fracs := []float64{0, 0.05, 0.2, 0.35, 0.5, 0.65, 0.9}
			for i, p := range notes[:20] {
				text := files[p]
				if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
					t.Fatal(err)
				}
				var to string
				switch i % 4 {
				case 0: // the same file name in another folder
					to = "moved/" + path.Base(p)
				case 1: // a new name in the same folder
					to = path.Dir(p) + fmt.Sprintf("/renamed %02d.md", i)
				case 2: // deleted
					continue
				case 3: // a new name elsewhere
					to = fmt.Sprintf("elsewhere/x%02d.md", i)
				}
				write(t, dir, map[string]string{to: reword(rng, text, fracs[rng.IntN(len(fracs))])})
			}
			for i := range 4 {
				write(t, dir, map[string]string{fmt.Sprintf("new/fresh %d.md", i): randomNote(rng, 10)})
			}
			crlf := notes[20]
			write(t, dir, map[string]string{crlf: ""})
			os.Remove(filepath.Join(dir, filepath.FromSlash(crlf)))
			write(t, dir, map[string]string{"crlf/" + path.Base(crlf): strings.ReplaceAll(files[crlf], "\n", "\r\n")})
			os.Remove(filepath.Join(dir, "bin", "x.png"))
			write(t, dir, map[string]string{"bin/y.png": files["bin/x.png"] + "more"})

			want, got := gitRenames(t, dir), ourRenames(t, r)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("renames differ from git diff -M (-git +ours):\n%s", d)
			}
			renamed := 0
			for _, l := range got {
				if strings.HasPrefix(l, "R ") {
					renamed++
				}
			}
			if renamed < 8 {
				t.Errorf("only %d renames: the test does not exercise rename detection\n%s", renamed, strings.Join(got, "\n"))
			}
		})
	}
}

// TestRenameCompetition: three new notes resemble one deleted note; git pairs the
// most similar one (here the one with its file name), and so does Status, also after
// that one is rewritten.
func TestRenameCompetition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dir := filepath.Join(t.TempDir(), "vault")
	orig := randomNote(rng, 40)
	write(t, dir, map[string]string{"a/Plan.md": orig, "keep.md": "k\n"})
	run(t, dir, "init", "-q")
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "initial")
	r := open(t, dir)
	os.Remove(filepath.Join(dir, "a", "Plan.md"))
	write(t, dir, map[string]string{"b/Draft.md": reword(rng, orig, 0.4), "b/Final.md": reword(rng, orig, 0.1), "c/Plan.md": orig + "one more line\n"})
	want, got := gitRenames(t, dir), ourRenames(t, r)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("(-git +ours):\n%s", d)
	}
	if d := cmp.Diff([]string{"A b/Draft.md", "A b/Final.md", "R a/Plan.md c/Plan.md"}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// The answer is remembered for the same contents only: rewrite the winner and the
	// next best is paired, as git pairs it.
	write(t, dir, map[string]string{"c/Plan.md": randomNote(rng, 40)})
	want, got = gitRenames(t, dir), ourRenames(t, r)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("after an edit (-git +ours):\n%s", d)
	}
	if d := cmp.Diff([]string{"A b/Draft.md", "A c/Plan.md", "R a/Plan.md b/Final.md"}, got); d != "" {
		t.Errorf("after an edit (-want +got):\n%s", d)
	}
}

// TestRenameFromTheJourney: a note MemoTree moved and then rewrote entirely is one
// renamed change, because the journey says it was moved, though git, comparing
// contents only, sees a deletion and a new file; a note moved twice is paired from
// its first path to its last; a deletion and a new note the journey does not link,
// nor their content, stay apart.
func TestRenameFromTheJourney(t *testing.T) {
	dir, r := newRepo(t)
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := t.Context()
	move := func(from, to vpath.Path, data string) {
		t.Helper()
		if _, err := v.Apply(ctx, []vault.Change{{Path: from, Delete: true}, {Path: to, Data: []byte(data), CreateOnly: true, From: from}},
			vault.WriteOptions{Actor: "agent", Op: "move_entity", Turn: "t1"}); err != nil {
			t.Fatal(err)
		}
	}
	move("a.md", "archive/a.md", "entirely new words\n")
	move("people/Charles.md", "people/Babbage.md", "# Babbage\n\nnothing like before, at all\n")
	move("people/Babbage.md", "history/Charles Babbage.md", "# Charles Babbage\n\nrewritten once more\n")
	if _, err := v.Write(ctx, "brand new.md", []byte("# New\n\nunrelated\n"), vault.WriteOptions{Actor: "agent"}); err != nil {
		t.Fatal(err)
	}
	if err := v.RemoveWith(ctx, "b.md", vault.WriteOptions{Actor: "agent"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"A brand new.md", "D b.md", "R a.md archive/a.md", "R people/Charles.md history/Charles Babbage.md"}
	if d := cmp.Diff(want, ourRenames(t, r)); d != "" {
		t.Errorf("Status (-want +got):\n%s", d)
	}
	git := gitRenames(t, dir)
	for _, l := range []string{"D a.md", "A archive/a.md", "D people/Charles.md", "A history/Charles Babbage.md"} {
		if !contains(git, l) {
			t.Errorf("git pairs what only the journey knows (the test would prove nothing): %q lacks %q", git, l)
		}
	}
	// A tracker (the app's status) pairs them too.
	tr := gitrepo.NewTracker(r)
	st, err := tr.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := countState(st, gitrepo.Renamed); n != 2 {
		t.Errorf("the tracker found %d renames, want 2: %+v", n, st)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func countState(st []gitrepo.Change, s gitrepo.State) int {
	n := 0
	for _, c := range st {
		if c.State == s {
			n++
		}
	}
	return n
}
