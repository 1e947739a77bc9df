package canvas

import (
	"os"
	"testing"
)

// benchCanvas opens $MEMOTREE_BENCH_VAULT (make bench sets it to the 10k vault), else
// a generated vault of 10,000 notes.
func benchCanvas(b *testing.B) *Canvas {
	b.Helper()
	dir := os.Getenv("MEMOTREE_BENCH_VAULT")
	if dir == "" {
		dir = genVault(b, 10000)
	}
	return New(openLib(b, dir), nil)
}

// BenchmarkDefaultView renders the default view of a fresh view name, and reports
// its tokens and the most expand_node calls any note needs to appear (targets: at most
// 2,000 tokens and 3 calls on the 10k vault).
func BenchmarkDefaultView(b *testing.B) {
	c := benchCanvas(b)
	ctx := b.Context()
	var tokens int
	for b.Loop() {
		r, err := c.Render(ctx, "bench-default")
		if err != nil {
			b.Fatal(err)
		}
		tokens = r.Tokens
	}
	reach, err := c.Reach(ctx, "bench-default")
	if err != nil {
		b.Fatal(err)
	}
	worst := 0
	for _, k := range reach {
		worst = max(worst, k)
	}
	b.ReportMetric(float64(tokens), "tokens")
	b.ReportMetric(float64(worst), "max-expands")
}

// BenchmarkExpandCollapse measures one expand_node and one collapse_node of a folder
// (each reads, changes and writes the view under the vault lock, and renders it).
func BenchmarkExpandCollapse(b *testing.B) {
	c := benchCanvas(b)
	ctx := b.Context()
	r, err := c.Render(ctx, "bench-expand")
	if err != nil {
		b.Fatal(err)
	}
	folder := ""
	for _, n := range r.Nodes {
		if n.Kind == KindFolder && n.ID != RootID {
			folder = n.ID
			break
		}
	}
	b.Cleanup(func() { c.lib.State().RemoveInternal("views/bench-expand.json") })
	for b.Loop() {
		if _, err := c.Expand(ctx, "bench-expand", folder, Summary, ExpandOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Collapse(ctx, "bench-expand", folder, false); err != nil {
			b.Fatal(err)
		}
	}
}
