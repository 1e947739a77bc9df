package agent

import (
	"context"

	"github.com/memotree/memotree/backend/llm"
)

// The loop's steps, for the benchmark of one round (bench_test.go), which is an
// external test: it opens a workspace, and the workspace makes agents.
var (
	BuildContext = func(ctx context.Context, a *Agent, hist []llm.Message) ([]llm.Message, error) {
		return a.context(ctx, hist)
	}
	ToolDefs = func(a *Agent) []llm.ToolDef { return a.toolDefs() }
	RunCalls = func(ctx context.Context, a *Agent, turn string, calls []llm.ToolCall) []llm.Message {
		return a.runCalls(ctx, turn, calls)
	}
)
