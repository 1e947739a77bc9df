package uiapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/bench/vaultgen"
)

// graphBenchNotes is the size of the generated vault: MEMOTREE_BENCH_NOTES, or 10,000.
func graphBenchNotes() int {
	if n, err := strconv.Atoi(os.Getenv("MEMOTREE_BENCH_NOTES")); err == nil && n >= 10 {
		return n
	}
	return 10000
}

// BenchmarkGraph measures what `memotree serve` does for the window's graph request on
// a generated vault (10k notes by default, about 15k nodes with the unresolved names and
// 110k edges): Graph, then the JSON encoding the HTTP API writes. "changed" saves a note
// before each call (outside the timer), so that the payload is built and encoded anew,
// as after an edit; "unchanged" is a request that finds the payload built. The vault is
// scanned before the timer starts.
func BenchmarkGraph(b *testing.B) {
	dir := b.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: graphBenchNotes(), Seed: 1}); err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.Open(b.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{})
	start := time.Now()
	g, err := api.Graph("v")
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("first call (scans the vault): %v; %d nodes, %d edges", time.Since(start), len(g.Nodes), len(g.Edges)/3)
	for _, changed := range []bool{true, false} {
		name := map[bool]string{true: "changed", false: "unchanged"}[changed]
		b.Run(name, func(b *testing.B) {
			var graphTime, encodeTime time.Duration
			hash := ""
			for i := 0; b.Loop(); i++ {
				if changed {
					b.StopTimer()
					res, err := api.SaveNote("v", "bench-edit.md", fmt.Sprintf("edit %d [[bench target]]\n", i), hash)
					if err != nil || res.Conflict {
						b.Fatal(err, res.Conflict)
					}
					hash = res.Hash
					b.StartTimer()
				}
				t0 := time.Now()
				g, err := api.Graph("v")
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := json.NewEncoder(io.Discard).Encode(g); err != nil {
					b.Fatal(err)
				}
				graphTime += t1.Sub(t0)
				encodeTime += time.Since(t1)
			}
			b.ReportMetric(float64(graphTime.Microseconds())/1000/float64(b.N), "ms-graph/op")
			b.ReportMetric(float64(encodeTime.Microseconds())/1000/float64(b.N), "ms-json/op")
		})
	}
}
