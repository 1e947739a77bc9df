package agent

import (
	"context"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/tool"
)

// Approver asks the person whether the agent may run the destructive tool name with
// args (the JSON the model wrote). It blocks until the person answers or ctx ends; an
// error (ctx ended, no one to ask) counts as a refusal.
type Approver func(ctx context.Context, name, args string) (bool, error)

// gate decides whether call c may run. The registry's policy says whether it waits for
// the person (a destructive call, or a script naming one, in a library with
// permission propose: Registry.Check answers CodeApprovalRequired); then the person is
// asked. gate returns approved true when the person said yes to this very call, and a
// non-nil result when the call must not run (the person declined, or there was no one
// to ask), which the model then reads as the call's result. Any other call passes with
// neither, and the registry answers it (a refusal included) when it is made.
func (a *Agent) gate(ctx context.Context, turn string, c llm.ToolCall) (approved bool, refused *tool.Result) {
	call := &tool.Call{Actor: tool.ActorAgent, Turn: turn, Session: a.Session}
	if r := a.Registry.Check(call, c.Name, []byte(c.Arguments)); r == nil || r.ErrorCode != tool.CodeApprovalRequired {
		return false, nil
	}
	if a.Approve == nil {
		r := tool.Fail(tool.CodePermissionDenied, "%s needs the person's approval and no one can be asked here; it was not run. Tell the person what you would delete or discard, so they can do it themselves", c.Name)
		return false, &r
	}
	a.emit(CallEvent{Phase: PhaseApproval, ID: c.ID, Name: c.Name, Args: c.Arguments})
	yes, err := a.Approve(ctx, c.Name, c.Arguments)
	if err != nil || !yes {
		why := "the person declined"
		if err != nil {
			why = "no approval came (" + err.Error() + ")"
		}
		r := tool.Fail(tool.CodePermissionDenied, "%s was not run: %s. Nothing changed; do not retry it unless the person asks", c.Name, why)
		return false, &r
	}
	return true, nil
}
