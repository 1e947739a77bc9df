package gitrepo_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/gitrepo"
	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/bench/vaultgen"
)

// benchNotes is the size of the benchmark vault: 1,000 notes, or MEMOTREE_BENCH_NOTES.
func benchNotes() int {
	if n, err := strconv.Atoi(os.Getenv("MEMOTREE_BENCH_NOTES")); err == nil && n >= 10 {
		return n
	}
	return 1000
}

// benchVault generates benchNotes() notes, commits them with git, and returns the folder, the
// repository and ten notes to modify.
func benchVault(b *testing.B) (string, *gitrepo.Repo, []vpath.Path) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: benchNotes(), Seed: 1}); err != nil {
		b.Fatal(err)
	}
	write(b, dir, map[string]string{".gitignore": ".memotree/\n"})
	run(b, dir, "init", "-q")
	run(b, dir, "add", "-A")
	run(b, dir, "commit", "-q", "-m", "vault")
	var notes []vpath.Path
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		notes = append(notes, vpath.Path(filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Slice(notes, func(i, j int) bool { return notes[i] < notes[j] })
	return dir, open(b, dir), notes[:10]
}

// touch appends a line to each note.
func touch(b *testing.B, dir string, notes []vpath.Path, tag string) {
	b.Helper()
	for _, n := range notes {
		f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(string(n))), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteString("\nedit " + tag + "\n"); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// timeGit returns the mean wall time of a git command over n runs.
func timeGit(b *testing.B, dir string, n int, args ...string) time.Duration {
	var total time.Duration
	for range n {
		start := time.Now()
		run(b, dir, args...)
		total += time.Since(start)
	}
	return total / time.Duration(n)
}

// BenchmarkStatus measures Status on 1,000 notes with 10 modified, beside
// `git status --porcelain` on the same tree.
func BenchmarkStatus(b *testing.B) {
	dir, r, notes := benchVault(b)
	touch(b, dir, notes, "x")
	if _, err := r.Status(b.Context()); err != nil { // warm the cache like git's first run
		b.Fatal(err)
	}
	gitNS := timeGit(b, dir, 10, "status", "--porcelain")
	b.ResetTimer()
	for b.Loop() {
		st, err := r.Status(b.Context())
		if err != nil || len(st) != 10 {
			b.Fatalf("status = %d changes, %v", len(st), err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(gitNS.Nanoseconds()), "git-ns/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(gitNS.Nanoseconds()), "x-git")
}

// BenchmarkChangeSides10 measures reading both versions of 10 modified notes (loose
// objects in HEAD), which git_status does to describe each pending change.
func BenchmarkChangeSides10(b *testing.B) {
	dir, r, notes := benchVault(b)
	touch(b, dir, notes, "x")
	changes := make([]gitrepo.Change, len(notes))
	for i, n := range notes {
		changes[i] = gitrepo.Change{Path: n, State: gitrepo.Modified}
	}
	for b.Loop() {
		sides, err := r.ChangeSides(b.Context(), changes)
		if err != nil || len(sides) != 10 || len(sides[9].Old) == 0 {
			b.Fatalf("sides: %v", err)
		}
	}
}

// BenchmarkCommit10 measures a commit of 10 modified notes out of 1,000, beside
// `git add` of the 10 and `git commit` on a twin repository.
func BenchmarkCommit10(b *testing.B) {
	dir, r, notes := benchVault(b)
	twin, _, _ := benchVault(b)
	args := []string{"add", "--"}
	for _, n := range notes {
		args = append(args, string(n))
	}
	var gitTotal time.Duration
	i := 0
	for b.Loop() {
		i++
		b.StopTimer()
		tag := strconv.Itoa(i)
		touch(b, dir, notes, tag)
		touch(b, twin, notes, tag)
		start := time.Now()
		run(b, twin, args...)
		run(b, twin, "commit", "-q", "-m", "edit "+tag)
		gitTotal += time.Since(start)
		b.StartTimer()
		if _, err := r.Commit(b.Context(), gitrepo.CommitOptions{Message: "edit " + tag, Paths: notes}); err != nil {
			b.Fatal(err)
		}
	}
	gitNS := float64(gitTotal.Nanoseconds()) / float64(i)
	b.ReportMetric(gitNS, "git-ns/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i)/gitNS, "x-git")
}

// BenchmarkTrackerRefresh measures the app's status refresh after one note changed:
// the watcher's path is touched and the Tracker re-examines it alone (target: under
// 20 ms on 10,000 notes).
func BenchmarkTrackerRefresh(b *testing.B) {
	dir, r, notes := benchVault(b)
	touch(b, dir, notes, "x")
	tr := gitrepo.NewTracker(r)
	if _, err := tr.Status(b.Context()); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		b.StopTimer()
		touch(b, dir, notes[:1], strconv.Itoa(i))
		b.StartTimer()
		tr.Touch(string(notes[0]))
		st, err := tr.Status(b.Context())
		if err != nil || len(st) != 10 {
			b.Fatalf("status = %d changes, %v", len(st), err)
		}
	}
}

// BenchmarkStatusRenames measures Status on 1,000 notes of which 200 were renamed with
// a one-line edit (paired by similarity, none keeping its file name) and 50 deleted
// beside 50 new unrelated notes, beside `git diff --cached -M` of the same tree staged
// into a scratch index.
func BenchmarkStatusRenames(b *testing.B) {
	dir, r, _ := benchVault(b)
	var notes []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			notes = append(notes, p)
		}
		return nil
	})
	sort.Strings(notes)
	for i, p := range notes[:250] {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		os.Remove(p)
		if i >= 200 {
			write(b, dir, map[string]string{"fresh/" + strconv.Itoa(i) + ".md": "unrelated " + strconv.Itoa(i) + "\n"})
			continue
		}
		write(b, dir, map[string]string{"renamed/r" + strconv.Itoa(i) + ".md": string(data) + "\none more line\n"})
	}
	st, err := r.Status(b.Context())
	if err != nil || countState(st, gitrepo.Renamed) != 200 {
		b.Fatalf("status = %d renames, %v", countState(st, gitrepo.Renamed), err)
	}
	scratch := filepath.Join(b.TempDir(), "index")
	env := append(gitEnv(dir), "GIT_INDEX_FILE="+scratch)
	cmd := gitCmd(dir, "add", "-A")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatal(err, string(out))
	}
	start := time.Now()
	for range 5 {
		cmd := gitCmd(dir, "diff", "--cached", "-M", "--name-status", "HEAD")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
	gitNS := time.Since(start) / 5
	r2 := open(b, dir) // a repository that has never compared them: the first status pays
	cpu := benchtest.CPU()
	if _, err := r2.Status(b.Context()); err != nil {
		b.Fatal(err)
	}
	first := benchtest.CPU() - cpu
	b.ResetTimer()
	cpu = benchtest.CPU()
	for b.Loop() {
		if _, err := r.Status(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(gitNS.Nanoseconds()), "git-ns/op")
	b.ReportMetric(float64(first.Nanoseconds()), "first-cpu-ns")
	b.ReportMetric(float64((benchtest.CPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkIndexTrees computes the index's trees after `git commit`, which leaves a
// valid cache-tree: hashing every tree (hashed) beside taking the hashes from the
// cache-tree as Status does (cache-tree), which should stay several times cheaper.
func BenchmarkIndexTrees(b *testing.B) {
	_, r, _ := benchVault(b)
	trees, err := gitrepo.HashIndexTrees(r)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		use  bool
	}{{"hashed", false}, {"cache-tree", true}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				trees(c.use)
			}
		})
	}
}
