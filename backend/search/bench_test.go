package search

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// benchVault is the 10k-note vault of bench/run.sh (MEMOTREE_BENCH_VAULT), copied
// once per process so that the index files it writes do not touch the shared one;
// benchmarks skip without it.
func benchVault(b *testing.B) string {
	b.Helper()
	src := os.Getenv("MEMOTREE_BENCH_VAULT")
	if src == "" {
		b.Skip("MEMOTREE_BENCH_VAULT is not set: bench/run.sh sets it to the generated 10k-note vault")
	}
	if benchCopy == "" {
		dst, err := os.MkdirTemp("", "memotree-search-bench-")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(filepath.Join(dst, ".memotree"))
		benchCopy = dst
	}
	return benchCopy
}

var benchCopy string

func TestMain(m *testing.M) {
	code := m.Run()
	if benchCopy != "" {
		os.RemoveAll(benchCopy)
	}
	os.Exit(code)
}

// BenchmarkBuild builds the index of the 10k vault from nothing (warm page cache).
func BenchmarkBuild(b *testing.B) {
	_, v := benchVaultOpen(b)
	start := benchtest.CPU()
	defer func() { benchtest.ReportCPU(b, start) }()
	for b.Loop() {
		v.RemoveInternal(indexFile)
		ix, _, err := Open(b.Context(), v.State(), Options{SaveDelay: -1})
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkReopen opens the persisted index of an unchanged 10k vault.
func BenchmarkReopen(b *testing.B) {
	_, v := benchVaultOpen(b)
	ix, _, err := Open(b.Context(), v.State(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	ix.Close()
	start := benchtest.CPU()
	defer func() { benchtest.ReportCPU(b, start) }()
	for b.Loop() {
		ix, st, err := Open(b.Context(), v.State(), Options{})
		if err != nil || !st.Loaded || st.Reread != 0 {
			b.Fatal(st, err)
		}
		ix.Close()
	}
}

// BenchmarkQuery runs ranked queries with snippets on the 10k vault and reports the
// 50th and 99th percentile latencies.
func BenchmarkQuery(b *testing.B) {
	_, ix := benchIndex(b)
	b.Run("built", func(b *testing.B) { benchQueries(b, ix) })
	// A process opening the persisted index uses its note table where it lies in the
	// mapped file (docs.go).
	ix.mu.RLock()
	data := encode(ix.x, newGen()) // Save does nothing with SaveDelay -1
	ix.mu.RUnlock()
	if err := ix.v.WriteInternal(indexFile, data); err != nil {
		b.Fatal(err)
	}
	re, st, err := Open(b.Context(), ix.v, Options{SaveDelay: -1})
	if err != nil {
		b.Fatal(err)
	}
	if !st.Loaded || re.x.tab.n == 0 {
		b.Fatalf("the index was not reopened from its file: %+v", st)
	}
	b.Cleanup(func() { re.Close() })
	b.Run("reopened", func(b *testing.B) { benchQueries(b, re) })
}

// benchQueries runs the queries of BenchmarkQuery on ix, reporting latency percentiles.
func benchQueries(b *testing.B, ix *Index) {
	queries := []string{"galvex", "zunar pelcoster", `"zunar pelcoster"`, "gal*", "thihesel lozu thifipel", "overview", "bench/misil", "morriras -panar"}
	var lat, cpu []time.Duration
	worst := map[string]time.Duration{}
	i := 0
	for b.Loop() {
		start, startCPU := time.Now(), benchtest.CPU()
		q := queries[i%len(queries)]
		if _, err := ix.Search(b.Context(), Request{Query: q, Limit: 20}); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		lat, cpu = append(lat, d), append(cpu, benchtest.CPU()-startCPU)
		worst[q] = max(worst[q], d)
		i++
	}
	if testing.Verbose() {
		b.Logf("slowest run of each query: %v", worst)
	}
	reportPercentiles(b, "", lat)
	reportPercentiles(b, "cpu-", cpu)
}

// reportPercentiles reports the median and 99th percentile of ds; the CPU time of
// the process beside the wall time tells a slow query from a busy machine.
func reportPercentiles(b *testing.B, prefix string, ds []time.Duration) {
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, prefix+"p99-ms")
}

// BenchmarkReindexOne changes one note and re-indexes it, as after a watcher event.
func BenchmarkReindexOne(b *testing.B) {
	dir, ix := benchIndex(b)
	p := ix.x.path(0)
	orig, _ := os.ReadFile(filepath.Join(dir, string(p)))
	defer os.WriteFile(filepath.Join(dir, string(p)), orig, 0o644)
	n := 0
	start := benchtest.CPU()
	defer func() { benchtest.ReportCPU(b, start) }()
	for b.Loop() {
		n++
		os.WriteFile(filepath.Join(dir, string(p)), fmt.Appendf(slices.Clone(orig), "\nedit%d\n", n), 0o644)
		ix.Changed([]vpath.Path{p}, false)
		if err := ix.Refresh(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchVaultOpen opens the benchmark vault, closed when the benchmark ends.
func benchVaultOpen(b *testing.B) (string, *vault.Vault) {
	b.Helper()
	dir := benchVault(b)
	v, err := vault.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	return dir, v
}

// benchIndex opens the benchmark vault and its index (saved only when closed).
func benchIndex(b *testing.B) (string, *Index) {
	b.Helper()
	dir, v := benchVaultOpen(b)
	ix, _, err := Open(b.Context(), v.State(), Options{SaveDelay: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return dir, ix
}

// BenchmarkPatternCandidates narrows the regular expressions of make bench's regex
// searches (two words, the first ending a term and the last beginning one) to the
// notes that may match, on the 10k vault.
func BenchmarkPatternCandidates(b *testing.B) {
	_, ix := benchIndex(b)
	for _, pat := range []string{"Gallolum thijomor", "zunar pelcoster"} {
		tree, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.ReplaceAll(pat, " ", "-"), func(b *testing.B) {
			start := benchtest.CPU()
			defer func() { benchtest.ReportCPU(b, start) }()
			for b.Loop() {
				if _, err := ix.PatternCandidates(b.Context(), tree); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
