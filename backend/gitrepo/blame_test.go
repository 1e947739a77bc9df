package gitrepo_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/corpora"
)

// blamed is one line as git blame gives it: the commit ("" for a line not committed)
// and the text.
type blamed struct{ Commit, Text string }

// gitBlame runs `git blame --porcelain -M -w` with args and reads, for each line, its
// commit and text.
func gitBlame(t testing.TB, dir string, args ...string) []blamed {
	t.Helper()
	out := run(t, dir, append([]string{"-c", "core.quotePath=false", "blame", "--porcelain", "-M", "-w"}, args...)...)
	var lines []blamed
	commit := ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			c := commit
			if strings.Trim(c, "0") == "" {
				c = ""
			}
			lines = append(lines, blamed{c, strings.TrimSuffix(l[1:], "\r")})
		case len(l) > 40 && l[40] == ' ' && strings.Trim(l[:40], "0123456789abcdef") == "":
			commit = l[:40]
		}
	}
	return lines
}

// ours reads Blame's lines as gitBlame does.
func ours(b gitrepo.Blame) []blamed {
	out := make([]blamed, len(b.Lines))
	for i, l := range b.Lines {
		out[i] = blamed{l.Commit, l.Text}
	}
	return out
}

// history builds a history over a copy of a corpus: the import, then rounds of edits
// by two people (lines reworded, blocks of lines moved, lines only re-indented, lines
// inserted, notes renamed) and by the agent through MemoTree's commit (with its
// trailers). It returns the notes touched, by their current paths, and the hash of
// each agent commit.
func history(t *testing.T, corpus string) (dir string, v *vault.Vault, r *gitrepo.Repo, touched []string, agent map[string]bool) {
	t.Helper()
	src := corpora.Dir(t, corpus)
	dir = filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = os.Chmod(p, map[bool]fs.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{".gitignore": ".memotree/\njourney.yaml\n"})
	run(t, dir, "init", "-q", "-b", "main")
	run(t, dir, "config", "user.name", "Ada")
	run(t, dir, "config", "user.email", "ada@example.com")
	run(t, dir, "add", "-A")
	run(t, dir, "-c", "user.name=Importer", "commit", "-q", "-m", "import the corpus")
	var notes []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(dir, p)
			notes = append(notes, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(notes)
	rng := rand.New(rand.NewPCG(29, 1))
	chosen := map[string]bool{}
	for len(chosen) < 8 {
		chosen[notes[rng.IntN(len(notes))]] = true
	}
	for n := range chosen {
		touched = append(touched, n)
	}
	sort.Strings(touched)
	v, r = openVault(t, dir)
	agent = map[string]bool{}
	for round := range 24 {
		i := rng.IntN(len(touched))
		p := touched[i]
		lines := strings.SplitAfter(read(t, dir, p), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		op := round % 6
		if op == 1 && len(lines) <= 12 {
			op = 0
		}
		switch op {
		case 0, 3: // a line reworded
			k := rng.IntN(len(lines))
			text, eol := strings.CutSuffix(lines[k], "\n")
			lines[k] = fmt.Sprintf("%s (reworded in round %d)%s", text, round, map[bool]string{true: "\n"}[eol])
		case 1: // a block moved down
			if len(lines) > 12 {
				a := rng.IntN(len(lines) - 10)
				block := append([]string{}, lines[a:a+3]...)
				rest := append(append([]string{}, lines[:a]...), lines[a+3:]...)
				at := min(a+6, len(rest))
				lines = append(append(append([]string{}, rest[:at]...), block...), rest[at:]...)
			}
		case 2: // lines re-indented only
			for k := range lines {
				if k%5 == 1 && strings.TrimSpace(lines[k]) != "" {
					lines[k] = "  " + lines[k]
				}
			}
		case 4: // lines inserted
			k := rng.IntN(len(lines))
			lines = append(lines[:k], append([]string{fmt.Sprintf("A line added in round %d.\n", round)}, lines[k:]...)...)
		case 5: // renamed, and a line added
			np := strings.TrimSuffix(p, ".md") + fmt.Sprintf(" r%d.md", round)
			run(t, dir, "mv", p, np)
			touched[i], p = np, np
			lines = append(lines, fmt.Sprintf("\nRenamed in round %d.\n", round))
		}
		text := strings.Join(lines, "")
		if round%4 == 3 && round%6 != 5 { // the agent, through MemoTree
			if _, err := v.Write(t.Context(), vpath.Path(p), []byte(text), vault.WriteOptions{Actor: "agent", Turn: fmt.Sprintf("turn-%d", round), Session: "s"}); err != nil {
				t.Fatal(err)
			}
			sets, err := r.ChangeSets(t.Context(), v)
			if err != nil {
				t.Fatal(err)
			}
			res, err := r.CommitPending(t.Context(), sets, gitrepo.PendingCommit{Paths: []vpath.Path{vpath.Path(p)}, Message: fmt.Sprintf("round %d", round)})
			if err != nil {
				t.Fatal(err)
			}
			agent[res.Hash.String()] = true
			continue
		}
		write(t, dir, map[string]string{p: text})
		who := []string{"Ada", "Charles"}[round%2]
		run(t, dir, "-c", "user.name="+who, "commit", "-q", "-a", "-m", fmt.Sprintf("round %d", round))
	}
	sort.Strings(touched)
	return dir, v, r, touched, agent
}

// TestBlameAgainstGit blames the notes of histories built over the two Help corpora
// and compares every line's commit and text with `git blame --porcelain -M -w`; the
// actors come from MemoTree's trailers or the authors, and the lines of pending
// changes (an edit, and a rename with an edit) from their change sets.
func TestBlameAgainstGit(t *testing.T) {
	for _, corpus := range []string{"obsidian-help-en", "obsidian-help-zh"} {
		t.Run(corpus, func(t *testing.T) {
			dir, v, r, touched, agent := history(t, corpus)
			ctx := t.Context()
			// Pending: the agent edits one note, and renames another with an edit.
			edited, moved := touched[0], touched[1]
			text := read(t, dir, edited)
			if _, err := v.Write(ctx, vpath.Path(edited), []byte("A line the agent has not committed.\n"+text), vault.WriteOptions{Actor: "agent", Turn: "pending-turn", Session: "s"}); err != nil {
				t.Fatal(err)
			}
			movedTo := "moved/" + filepath.Base(moved)
			if err := v.RenameWith(ctx, vpath.Path(moved), vpath.Path(movedTo), vault.WriteOptions{Actor: "agent", Turn: "pending-turn"}); err != nil {
				t.Fatal(err)
			}
			write(t, dir, map[string]string{movedTo: read(t, dir, movedTo) + "Added after the move.\n"})

			actors := map[string]int{}
			for _, p := range touched {
				o := gitrepo.BlameOptions{Path: vpath.Path(p)}
				args := []string{"--", p}
				switch p {
				case edited:
					o.ChangeSet = "agent@pending-turn"
				case moved:
					o = gitrepo.BlameOptions{Path: vpath.Path(movedTo), From: vpath.Path(p), ChangeSet: gitrepo.OutsideID}
					args = []string{"--contents", filepath.Join(dir, movedTo), "--", p}
				}
				start := time.Now()
				b, err := r.Blame(ctx, o)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %d lines, %d commits, %v", p, len(b.Lines), len(b.Commits), time.Since(start).Round(time.Millisecond))
				if d := cmp.Diff(gitBlame(t, dir, args...), ours(b)); d != "" {
					t.Errorf("blame of %s (-git +ours):\n%s", p, d)
				}
				for _, l := range b.Lines {
					if l.Commit == "" {
						if b.Pending == nil {
							t.Fatalf("%s line %d is pending, but Blame has no pending change", p, l.Line)
						}
						actors[b.Pending.Actor]++
						continue
					}
					c := b.Commits[l.Commit]
					want := c.Author
					if agent[l.Commit] {
						want = "agent"
					}
					if c.Actor != want || c.Hash != l.Commit || c.Date.IsZero() || c.Path == "" {
						t.Errorf("%s line %d: commit %+v, want actor %q", p, l.Line, c, want)
					}
					actors[c.Actor]++
				}
			}
			for _, a := range []string{"Importer", "Ada", "Charles", "agent", "agent@pending-turn", gitrepo.OutsideID} {
				if actors[a] == 0 {
					t.Errorf("no line is blamed on %s: %v", a, actors)
				}
			}
		})
	}
}

// TestBlameFollowsAndIgnores: a note renamed keeps its lines' first commit, a block of
// lines moved keeps its commit (-M), a line only re-indented keeps its commit (-w).
func TestBlameFollowsAndIgnores(t *testing.T) {
	dir, _ := newRepo(t)
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("A sentence of the note, number %d.\n", i+1))
	}
	write(t, dir, map[string]string{"first.md": strings.Join(lines, "")})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "first")
	first := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
	run(t, dir, "mv", "first.md", "second.md")
	moved := append(append(append([]string{}, lines[3:15]...), lines[:3]...), lines[15:]...) // lines 1-3 moved down
	moved[0] = "\t" + moved[0]                                                               // re-indented
	moved[5] = "A sentence reworded.\n"
	write(t, dir, map[string]string{"second.md": strings.Join(moved, "")})
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "second")
	second := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
	_, r := openVault(t, dir)
	b, err := r.Blame(t.Context(), gitrepo.BlameOptions{Path: "second.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range b.Lines {
		want := first
		if l.Line == 6 {
			want = second
		}
		if l.Commit != want {
			t.Errorf("line %d %q: commit %.7s, want %.7s", l.Line, l.Text, l.Commit, want)
		}
	}
	if c := b.Commits[first]; c.Path != "first.md" || c.Actor != "Test" {
		t.Errorf("the first commit: %+v, want path first.md and actor Test (the author)", c)
	}
	if c := b.Commits[second]; c.Path != "second.md" || c.PreviousPath != "first.md" || c.Previous != first {
		t.Errorf("the second commit: %+v, want path second.md, previous first.md", c)
	}
	d, err := r.CommitFileDiff(t.Context(), second, "second.md", "first.md")
	if err != nil || len(d.Hunks) == 0 || d.From != "first.md" {
		t.Errorf("the second commit's diff: %+v, %v", d, err)
	}
}

// TestBlameManyCommits blames a note changed by 400 commits (made by git fast-import)
// as git does, and says how long it took.
func TestBlameManyCommits(t *testing.T) {
	dir, _ := newRepo(t)
	manyCommits(t, dir, "busy.md", 400)
	_, r := openVault(t, dir)
	start := time.Now()
	b, err := r.Blame(t.Context(), gitrepo.BlameOptions{Path: "busy.md"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("blame of a note of %d lines changed by 400 commits: %d commits named, %v", len(b.Lines), len(b.Commits), time.Since(start))
	start = time.Now()
	want := gitBlame(t, dir, "--", "busy.md")
	t.Logf("git blame itself: %v", time.Since(start))
	if d := cmp.Diff(want, ours(b)); d != "" {
		t.Errorf("blame (-git +ours):\n%s", d)
	}
	if len(b.Commits) < 150 {
		t.Errorf("only %d commits named", len(b.Commits))
	}
}

func BenchmarkBlameManyCommits(b *testing.B) {
	dir, _ := newRepo(b)
	manyCommits(b, dir, "busy.md", 400)
	_, r := openVault(b, dir)
	for b.Loop() {
		if _, err := r.Blame(b.Context(), gitrepo.BlameOptions{Path: "busy.md"}); err != nil {
			b.Fatal(err)
		}
	}
}

// manyCommits adds n commits on top of HEAD, each rewording one of the 300 lines of
// the note at p (and inserting one every tenth commit), through git fast-import, half
// of them with MemoTree's trailers.
func manyCommits(t testing.TB, dir, p string, n int) {
	t.Helper()
	lines := make([]string, 300)
	for i := range lines {
		lines[i] = fmt.Sprintf("Line %d of a note that many hands have edited.\n", i+1)
	}
	var s strings.Builder
	rng := rand.New(rand.NewPCG(4, 2))
	for c := range n {
		k := rng.IntN(len(lines))
		lines[k] = fmt.Sprintf("Line %d, as commit %d wrote it.\n", k+1, c+1)
		if c%10 == 0 {
			lines = append(lines[:k], append([]string{fmt.Sprintf("Inserted by commit %d.\n", c+1)}, lines[k:]...)...)
		}
		text := strings.Join(lines, "")
		msg := fmt.Sprintf("commit %d\n", c+1)
		if c%2 == 0 {
			msg += fmt.Sprintf("\nMemoTree-Actor: agent\nMemoTree-Turn: turn-%d\n", c+1)
		}
		from := ""
		if c == 0 {
			from = "from refs/heads/main^0\n"
		}
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter Someone <someone@example.com> %d +0000\ndata %d\n%s%sM 100644 inline %s\ndata %d\n%s\n",
			1700000000+c*60, len(msg), msg, from, p, len(text), text)
	}
	cmd := gitCmd(dir, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(s.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	run(t, dir, "checkout", "-q", "-f", "main")
}
