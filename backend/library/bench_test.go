package library

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/bench/vaultgen"
)

// benchVault returns a generated vault: $MEMOTREE_BENCH_VAULT when set (make bench
// points it at the 10k-note vault), else a fresh 1,000-note one.
func benchVault(b *testing.B) string {
	b.Helper()
	if dir := os.Getenv("MEMOTREE_BENCH_VAULT"); dir != "" {
		return dir
	}
	dir := b.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkOpen measures a full index of the vault: walk, read, parse, resolve.
func BenchmarkOpen(b *testing.B) {
	dir := benchVault(b)
	for b.Loop() {
		l, err := Open(b.Context(), "b", dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}

// BenchmarkRefreshOneNote measures how long one changed note takes to reach the graph
// once its event has arrived: read, parse, re-resolve what it affects.
func BenchmarkRefreshOneNote(b *testing.B) {
	src := benchVault(b)
	l, err := Open(b.Context(), "b", src, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	notes := graphOf(b, l).Notes()
	p := notes[len(notes)/2]
	orig, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(string(p))))
	if err != nil {
		b.Fatal(err)
	}
	// Work on a scratch note beside the vault's notes so a shared vault is not changed;
	// the journey entries the refreshes append (actor external) are cut off afterwards.
	scratch := vpath.Path(fmt.Sprintf("%s/bench-scratch-%d.md", p.Dir(), os.Getpid()))
	full := filepath.Join(src, filepath.FromSlash(string(scratch)))
	defer os.Remove(full)
	defer restoreJourney(b, src)()
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		body := append(append([]byte{}, orig...), fmt.Sprintf("\nedit %d links to [[%s]]\n", i, notes[i%len(notes)].Name())...)
		if err := os.WriteFile(full, body, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		l.refresh(b.Context(), scratch)
	}
	b.StopTimer()
	if !graphOf(b, l).Has(scratch) {
		b.Fatal("the refreshed note is not in the graph")
	}
}

// restoreJourney returns a function that puts the vault's journey back to its present
// length (removing it if there is none now), so a benchmark leaves no entries behind.
func restoreJourney(b *testing.B, dir string) func() {
	path := filepath.Join(dir, "journey.yaml")
	fi, err := os.Stat(path)
	existed := err == nil
	return func() {
		var err error
		if existed {
			err = os.Truncate(path, fi.Size())
		} else {
			err = os.Remove(path)
		}
		if err != nil && !os.IsNotExist(err) {
			b.Errorf("restoring the journey: %v", err)
		}
	}
}
