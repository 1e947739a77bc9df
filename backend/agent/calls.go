package agent

import (
	"context"
	"sync"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// stoppedResult answers a call that never ran because the person stopped the turn.
const stoppedResult = "status: error\nerror_code: stopped\nmessage: the person stopped the turn before this call ran; it changed nothing\n"

// runCalls runs the calls of one reply and returns one tool message per call, in
// the calls' order. Consecutive read-only calls run concurrently; a write runs alone,
// after what came before it. Calls not started when ctx ends answer "stopped".
func (a *Agent) runCalls(ctx context.Context, turn string, calls []llm.ToolCall) []llm.Message {
	out := make([]llm.Message, len(calls))
	for i := 0; i < len(calls); {
		j := i + 1
		if a.readOnly(calls[i].Name) {
			for j < len(calls) && a.readOnly(calls[j].Name) {
				j++
			}
		}
		var wg sync.WaitGroup
		for k := i; k < j; k++ {
			wg.Go(func() { out[k] = a.runOne(ctx, turn, calls[k]) })
		}
		wg.Wait()
		i = j
	}
	return out
}

// readOnly reports whether the tool named name changes nothing.
func (a *Agent) readOnly(name string) bool {
	t, ok := a.Registry.Get(name)
	return ok && t.Class() == tool.ReadOnly
}

// runOne runs one call and returns its tool message. A destructive call first passes
// the person's approval (gate); a refusal is the result the model reads.
func (a *Agent) runOne(ctx context.Context, turn string, c llm.ToolCall) llm.Message {
	msg := llm.Message{Role: llm.RoleTool, ToolCallID: c.ID}
	if ctx.Err() != nil {
		msg.Content = stoppedResult
		return msg
	}
	approved, refused := a.gate(ctx, turn, c)
	var res tool.Result
	switch {
	case refused != nil:
		res = *refused
	case ctx.Err() != nil:
		msg.Content = stoppedResult
		return msg
	default:
		a.emit(CallEvent{Phase: PhaseStart, ID: c.ID, Name: c.Name, Args: c.Arguments})
		call := &tool.Call{Actor: tool.ActorAgent, Turn: turn, Session: a.Session, Approved: approved}
		// The registry renders an infrastructure error into res; its YAML says it.
		res, _ = a.Registry.Call(ctx, call, c.Name, []byte(c.Arguments))
	}
	msg.Content = res.YAML()
	a.emit(CallEvent{Phase: PhaseEnd, ID: c.ID, Name: c.Name, Args: c.Arguments, Result: &res})
	return msg
}
