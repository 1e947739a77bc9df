package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/bench/vaultgen"
)

// benchNotes is the size of the benchmark vault: 10,000 notes, or
// $MEMOTREE_BENCH_NOTES.
func benchNotes() int {
	if n, err := strconv.Atoi(os.Getenv("MEMOTREE_BENCH_NOTES")); err == nil && n >= 10 {
		return n
	}
	return 10000
}

// BenchmarkRound measures the agent's own work in one round on a generated vault of
// benchNotes() notes, without the model: building the context (the manual, the memory
// notebook, the canvas, the sensory block, a 24-message conversation trimmed to its
// budget), declaring the tools, and dispatching two read-only calls. It reports the
// median round as ms-median/round; the target is under 5 ms.
func BenchmarkRound(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: benchNotes(), Seed: 1}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ws, err := workspace.Open(ctx, []workspace.Spec{{Name: "bench", Path: dir}}, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		b.Fatal(err)
	}
	l, _ := ws.Library("")
	g, err := l.Graph(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	notes := g.Notes()
	if len(notes) < 2 {
		b.Fatalf("the vault has %d notes", len(notes))
	}
	a := &agent.Agent{Registry: reg, Memory: func(context.Context) (string, error) { return strings.Repeat("I remember. ", 200), nil },
		ActiveNote: func() string { return notes[0].Name() }, PendingChanges: func(context.Context) (int, error) { return 3, nil }}
	hist := benchHistory(notes[0].Name())
	calls := []llm.ToolCall{
		{ID: "c1", Name: "read_entities", Arguments: `{"entity_names":["` + notes[0].Name() + `"]}`},
		{ID: "c2", Name: "get_backlinks", Arguments: `{"entity_name":"` + notes[1].Name() + `"}`},
	}
	// Each round renders the canvas into the system message (view_canvas), trims
	// the history to its budget, declares the tools and runs two read-only calls.
	var rounds []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := agent.BuildContext(ctx, a, hist); err != nil {
			b.Fatal(err)
		}
		agent.ToolDefs(a)
		out := agent.RunCalls(ctx, a, "t", calls)
		rounds = append(rounds, time.Since(start))
		if len(out) != 2 || !strings.Contains(out[0].Content, "status: success") {
			b.Fatalf("calls failed: %v", out)
		}
	}
	slices.Sort(rounds)
	b.ReportMetric(float64(rounds[len(rounds)/2].Microseconds())/1000, "ms-median/round")
}

// benchHistory is a conversation of 24 messages: prompts, tool calls with results of
// a few hundred words, and answers.
func benchHistory(name string) []llm.Message {
	long := strings.Repeat("The note says something about the history of computing. ", 40)
	var h []llm.Message
	for i := range 6 {
		id := "call_" + strconv.Itoa(i)
		h = append(h,
			llm.Message{Role: llm.RoleUser, Content: "Tell me more about " + name + " and what links to it."},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_entities", Arguments: `{"entity_names":["` + name + `"]}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: "status: success\ndata:\n  content: " + long},
			llm.Message{Role: llm.RoleAssistant, Content: long})
	}
	return h
}
