package script

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/memotree/memotree/backend/tool"
)

//go:embed docs/*.md
var docs embed.FS

// RunStarlarkIn is the input of run_starlark.
type RunStarlarkIn struct {
	Target string `json:"target" jsonschema:"in a few words, what the script is for"`
	Code   string `json:"code" jsonschema:"the Starlark source; call tools with keyword arguments and assign the answer to __result__"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"true: run and report the change set, writing nothing"`
	tool.LibraryArg
}

// RunStarlark is run_starlark's typed handle: the tool is declared through it, and Go
// code runs a script through the registry with it (the agent's text tool calls). Its
// output is the run's Outcome.
var RunStarlark = tool.NewRef[RunStarlarkIn, *Outcome]("run_starlark")

// Tool returns the run_starlark tool, which runs scripts with r.
func (r *Runner) Tool() *tool.Tool {
	sub, err := fs.Sub(docs, "docs")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return RunStarlark.New(tool.Write, tool.MustDescription(sub, RunStarlark.Name()), r.handle, tool.Calls(r.calls)).
		Describe(tool.LibraryParam, "the library the script's calls act on when they name none; the default one when absent").
		WithTitle("Run a Starlark script").
		NotInScripts() // no nesting
}

// calls returns the tools a script's code names (see ToolsNamed): the registry's
// policy judges run_starlark by them, so a script is no way around an approval.
func (r *Runner) calls(in RunStarlarkIn) []*tool.Tool { return ToolsNamed(r.reg, in.Code) }

// Register declares run_starlark on reg, running scripts against reg's own tools
// within lim.
func Register(reg *tool.Registry, lim Limits) error {
	return reg.Register(NewRunner(reg, lim).Tool())
}

// handle runs a script; a failed script answers an error carrying the outcome.
func (r *Runner) handle(ctx context.Context, call *tool.Call, in RunStarlarkIn) (tool.Result, *Outcome, error) {
	o, err := r.Run(ctx, call, Input{Target: in.Target, Code: in.Code, DryRun: in.DryRun})
	if err != nil {
		return tool.Result{}, nil, err
	}
	if f := o.Failure; f != nil {
		msg := f.Message
		if f.Code != CodeConflict {
			msg += "; nothing was changed (a script's changes are applied only when it finishes)"
		}
		res := tool.Fail(f.Code, "%s", msg).WithData(&o)
		res.Warnings = o.Warnings
		return res, nil, nil
	}
	msg := fmt.Sprintf("the script ran: %d tool call(s), %d file(s) changed", o.ToolCalls, len(o.Changes))
	if o.DryRun {
		msg = fmt.Sprintf("dry run: %d tool call(s); %d file(s) would change; nothing was written", o.ToolCalls, len(o.Changes))
	}
	if o.OutputTruncated {
		msg += "; printed output was cut at the limit"
	}
	res := tool.OK(msg)
	res.Warnings = o.Warnings
	return res, &o, nil
}
