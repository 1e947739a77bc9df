package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/workspace/face"
)

// IndexStats is what `memotree index --stats` prints, one object per library.
type IndexStats struct {
	Library    string                `json:"library"`
	Notes      int                   `json:"notes"`
	Files      int                   `json:"files"`
	Links      int                   `json:"links"`
	Resolved   int                   `json:"resolved"`
	Unresolved int                   `json:"unresolved"`
	Relations  int                   `json:"relations"`
	Tags       int                   `json:"tags"`
	Warnings   int                   `json:"warnings"`
	ElapsedMS  float64               `json:"elapsed_ms"`
	Details    []library.FileWarning `json:"warning_details,omitempty"`
}

func runIndex(ctx context.Context, env Env, args []string) int {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	var ff face.Flags
	ff.Register(fs, "")
	stats := fs.Bool("stats", false, "print statistics as one JSON object per library")
	details := fs.Bool("warnings", false, "include every warning (file and line) in the output")
	if code, ok := parseFlags(fs, env, args); !ok {
		return code
	}
	if !requireLibraries(env, "index", ff.Libraries) || !checkFaceFlags(env, "index", ff) {
		return 2
	}
	// Parsing allocates a lot of short-lived memory; a lazier collector roughly halves
	// the time of a full index on two cores while keeping the peak within budget.
	// Once a library is listed, heap.beforeRead prepares for its notes (indexheap.go).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	var heap indexHeap
	start := time.Now()
	ws, err := face.OpenIndex(ctx, ff, heap.beforeRead)
	if err != nil {
		return fail(env, "index", err)
	}
	defer ws.Close()
	elapsed := time.Since(start)
	enc := json.NewEncoder(env.Stdout)
	for _, l := range ws.Libraries() {
		g, err := l.Graph(ctx)
		if err != nil {
			return fail(env, "index", err)
		}
		st := g.Stats()
		ws := l.Warnings()
		out := IndexStats{
			Library: l.Name(), Notes: st.Notes, Files: st.Files, Links: st.Links, Resolved: st.Resolved,
			Unresolved: st.Unresolved, Relations: st.Relations, Tags: g.TagCount(), Warnings: len(ws),
			ElapsedMS: float64(elapsed.Microseconds()) / 1000,
		}
		if *details {
			out.Details = ws
		}
		if *stats || !isTerminal(env.Stdout) {
			if err := enc.Encode(out); err != nil {
				return fail(env, "index", err)
			}
			continue
		}
		fmt.Fprintf(env.Stdout, "%s: %d notes, %d files, %d links (%d unresolved), %d relations, %d warnings in %.0f ms\n",
			out.Library, out.Notes, out.Files, out.Links, out.Unresolved, out.Relations, out.Warnings, out.ElapsedMS)
	}
	return 0
}
