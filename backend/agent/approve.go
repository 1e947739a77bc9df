package agent

import (
	"context"
	"encoding/json"

	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/script"
	"github.com/memotree/memotree/backend/tool"
)

// The permissions a library can give the agent, as Agent.Permission reports them.
const (
	PermRead    = "read"
	PermPropose = "propose"
	PermWrite   = "write"
)

// Approver asks the person whether the agent may run the destructive tool name with
// args (the JSON the model wrote). It blocks until the person answers or ctx ends; an
// error (ctx ended, no one to ask) counts as a refusal.
type Approver func(ctx context.Context, name, args string) (bool, error)

// gate decides whether call c may run. It returns approved true when the person said
// yes to this very call, and a non-nil result when the call must not run (the person
// declined, or there was no one to ask), which the model then reads as the call's
// result. A tool that needs no approval passes with neither.
func (a *Agent) gate(ctx context.Context, c llm.ToolCall) (approved bool, refused *tool.Result) {
	if !a.destructive(c) || a.permission(c) != PermPropose {
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

// destructive reports whether a call can delete or discard: a destructive tool, or a
// script that names one (a script must not be a way around the approval).
func (a *Agent) destructive(c llm.ToolCall) bool {
	t, ok := a.Registry.Get(c.Name)
	if !ok {
		return false
	}
	if t.Class() == tool.Destructive {
		return true
	}
	if c.Name != script.ToolName {
		return false
	}
	var in struct {
		Code string `json:"code"`
	}
	if json.Unmarshal([]byte(c.Arguments), &in) != nil {
		return false // the registry refuses the arguments anyway
	}
	for _, t := range script.ToolsNamed(a.Registry, in.Code) {
		if t.Class() == tool.Destructive {
			return true
		}
	}
	return false
}

// permission returns the agent's permission in the library the call acts on (the
// default library when its arguments name none), found as the registry finds it:
// library_name, or the library a page_index names. Without a Permission function every
// library counts as propose: ask rather than assume.
func (a *Agent) permission(c llm.ToolCall) string {
	if a.Permission == nil {
		return PermPropose
	}
	// Decoded as the registry decodes it (a map: exact key, the last one wins), not
	// into a struct, whose keys match in any case: {"LIBRARY_NAME": ...} must not
	// make the gate judge another library than the one the call acts on.
	var in map[string]any
	_ = json.Unmarshal([]byte(c.Arguments), &in)
	lib, _ := in[tool.LibraryParam].(string)
	if t, ok := a.Registry.Get(c.Name); ok {
		lib = t.LibraryOf(in)
	}
	return a.Permission(lib)
}
