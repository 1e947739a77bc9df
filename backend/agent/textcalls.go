package agent

import (
	"context"
	"strings"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/script"
	"github.com/memotree/memotree/backend/tool"
)

// textCalls runs the seed-003 [tool_call] blocks of a reply that made no native tool
// call (models without function calling write them as fenced TOML), each as
// run_starlark, and returns the user message that feeds their __result__ back; ok is
// false when the reply has no such block and is the final answer.
func (a *Agent) textCalls(ctx context.Context, turn, reply string) (msg llm.Message, ok bool) {
	calls := script.ParseToolCalls(reply)
	if len(calls) == 0 {
		return llm.Message{}, false
	}
	var b strings.Builder
	for _, c := range calls {
		if c.Problem != "" {
			b.WriteString(script.FormatToolResult(c.Target, string(tool.StatusError), string(script.CodeScriptError), c.Problem, nil))
			continue
		}
		approved, refused := a.gate(ctx, turn, llm.ToolCall{Name: script.RunStarlark.Name(), Arguments: string(c.Args())})
		if refused != nil {
			b.WriteString(script.FormatToolResult(c.Target, string(refused.Status), string(refused.ErrorCode), refused.Message, nil))
			continue
		}
		call := &tool.Call{Actor: tool.ActorAgent, Turn: turn, Session: a.Session, Approved: approved}
		res, out, _ := script.RunStarlark.Call(ctx, a.Registry, call, script.RunStarlarkIn{Target: c.Target, Code: c.Code})
		if a.OnTool != nil {
			a.toolMu.Lock()
			a.OnTool(script.RunStarlark.Name(), string(c.Args()), res)
			a.toolMu.Unlock()
		}
		var result any
		if out != nil {
			result = out.Result
		}
		b.WriteString(script.FormatToolResult(c.Target, string(res.Status), string(res.ErrorCode), res.Message, result))
	}
	return llm.Message{Role: llm.RoleUser, Content: b.String()}, true
}
