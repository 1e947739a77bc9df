package catalog_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/bench/vaultgen"
)

// TestReadEntitiesLazy proves that reading a note by its full path does not scan a
// lazily opened library: a broken note would leave a warning if the vault had been
// parsed, and it only does once a short name forces the graph.
func TestReadEntitiesLazy(t *testing.T) {
	files := map[string]string{"broken.md": "---\nno closing fence\n"}
	for k, v := range entFixture {
		files[k] = v
	}
	h := entNew(t, files, workspace.Options{Lazy: true})
	for _, c := range []struct{ tool, args string }{
		{"read_entities", `{"entity_names":["people/Ada Lovelace"]}`},
		{"read_entities", `{"entity_names":["people/Ada Lovelace.md","Engine"]}`},
		{"get_entities_toc", `{"entity_names":["people/Charles Babbage"]}`},
		{"read_manual", `{}`},
	} {
		h.ok(c.tool, c.args)
		if w := h.lib().Warnings(); len(w) != 0 {
			t.Fatalf("%s(%s) scanned the vault: %v", c.tool, c.args, w)
		}
	}
	h.ok("read_entities", `{"entity_names":["Ada"]}`) // an alias needs the graph
	if len(h.lib().Warnings()) == 0 {
		t.Error("the probe is blind: a scan left no warning")
	}
}

// entBenchVault generates a vault of n notes and opens it.
func entBenchVault(b *testing.B, n int) (*entHarness, []string) {
	b.Helper()
	parent := b.TempDir()
	dir := filepath.Join(parent, "vault")
	start := time.Now()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: n, Seed: 1, MinWords: 200, MaxWords: 800}); err != nil {
		b.Fatal(err)
	}
	if time.Since(start) > time.Minute {
		b.Skip("generating the vault is too slow here")
	}
	h := entOpen(b, parent, dir, workspace.Options{})
	var names []string
	for _, p := range h.graph().Notes() {
		names = append(names, p.Name())
	}
	if len(names) == 0 {
		b.Skip("the generated vault has no notes")
	}
	return h, names
}

// BenchmarkReadEntities measures the in-process dispatch of a read tool, arguments
// decoded and validated, the note read and the result built, on $MEMOTREE_BENCH_VAULT
// (make bench sets it to the 10k-note vault; the tool only reads it), else on a fresh
// 1,000-note vault. It reports the median call as µs-median/call; the target
// is under 100 µs on 10k notes.
func BenchmarkReadEntities(b *testing.B) {
	var h *entHarness
	var names []string
	if dir := os.Getenv("MEMOTREE_BENCH_VAULT"); dir != "" {
		h = entOpen(b, filepath.Dir(dir), dir, workspace.Options{})
		for _, p := range h.graph().Notes() {
			names = append(names, p.Name())
		}
	} else {
		h, names = entBenchVault(b, 1000)
	}
	call := &tool.Call{Actor: tool.ActorAgent}
	var took []time.Duration
	i := 0
	for b.Loop() {
		args, _ := json.Marshal(map[string]any{"entity_names": []string{names[i%len(names)]}})
		start := time.Now()
		res, err := h.reg.Call(b.Context(), call, "read_entities", args)
		took = append(took, time.Since(start))
		if err != nil || res.IsError() {
			b.Fatalf("%v %s", err, res.Message)
		}
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1000, "µs-median/call")
}

func BenchmarkEditEntity(b *testing.B) {
	h, names := entBenchVault(b, 1000)
	call := &tool.Call{Actor: tool.ActorAgent}
	name := names[len(names)/2]
	if _, err := h.reg.Call(b.Context(), call, "update_entity", json.RawMessage(fmt.Sprintf(`{"entity_name":%q,"mode":"append","content":"marker-0"}`, name))); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		args := fmt.Sprintf(`{"entity_name":%q,"old_content":"marker-%d","new_content":"marker-%d"}`, name, i, i+1)
		res, err := h.reg.Call(b.Context(), call, "edit_entity", json.RawMessage(args))
		if err != nil || res.IsError() {
			b.Fatalf("%v %s", err, res.Message)
		}
		i++
	}
}
