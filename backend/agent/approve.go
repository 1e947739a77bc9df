package agent

import (
	"context"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// gate decides whether call c may run, by the one approval path (approval.Gate): the
// registry's policy says whether it waits for the person (a destructive call, or a
// script naming one, in a library with permission propose), and then the person is
// asked through a.Approval, shown the whole call and its library. gate returns
// approved true when the person said yes to this very call, and a non-nil result when
// the call must not run (the person declined, or there was no one to ask), which the
// model then reads as the call's result. Any other call passes with neither, and the
// registry answers it (a refusal included) when it is made.
func (a *Agent) gate(ctx context.Context, turn string, c llm.ToolCall) (approved bool, refused *tool.Result) {
	call := &tool.Call{Actor: tool.ActorAgent, Turn: turn, Session: a.Session}
	g := a.Approval
	if ask := g.Ask; ask != nil {
		g.Ask = func(ctx context.Context, r approval.Request) (bool, error) {
			a.emit(CallEvent{Phase: PhaseApproval, ID: c.ID, Name: c.Name, Args: c.Arguments})
			return ask(ctx, r)
		}
	}
	refused = g.Pass(ctx, a.Registry, call, c.Name, []byte(c.Arguments))
	return call.Approved, refused
}
