package agent

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// BenchmarkRound measures the agent's own work in one round on the demo vault:
// building the context and dispatching one read-only call (no model).
func BenchmarkRound(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ws, err := workspace.Open(ctx, []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		b.Fatal(err)
	}
	a := &Agent{Registry: reg, Memory: func(context.Context) (string, error) { return "notes", nil }}
	hist := []llm.Message{{Role: llm.RoleUser, Content: "hello"}}
	calls := []llm.ToolCall{{ID: "c", Name: "read_entities", Arguments: `{"entity_names":["Welcome"]}`}}
	for b.Loop() {
		if _, err := a.context(ctx, hist); err != nil {
			b.Fatal(err)
		}
		a.toolDefs()
		if out := a.runCalls(ctx, "t", calls); len(out) != 1 {
			b.Fatal("no result")
		}
	}
}
