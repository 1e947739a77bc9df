package script

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
)

// Error codes of a failed script, besides those of the tool that stopped it.
const (
	// CodeScriptError means the script does not compile or failed while running.
	CodeScriptError tool.Code = "script_error"
	// CodeLimit means a limit stopped the script; the message names it.
	CodeLimit tool.Code = "limit_exceeded"
	// CodeConflict means the script ran, but a file it changed was changed by someone
	// else meanwhile, so none of its changes were applied.
	CodeConflict tool.Code = "conflict"
)

// Runner runs scripts against one registry. It is safe for concurrent use: every run
// has its own thread, budget and transaction.
type Runner struct {
	reg *tool.Registry
	lim Limits

	// extra is added to the predeclared names (tests add the assert module).
	extra starlark.StringDict
	// onThread, when set (tests), sees every new thread before it runs.
	onThread func(*starlark.Thread)
}

// NewRunner returns a Runner calling the tools of reg, within lim (zero fields take
// their defaults).
func NewRunner(reg *tool.Registry, lim Limits) *Runner {
	return &Runner{reg: reg, lim: lim.withDefaults()}
}

// Input is one script to run.
type Input struct {
	// Target says in a few words what the script is for (seed 003).
	Target string
	// Code is the Starlark source.
	Code string
	// DryRun runs the script and reports the changes it would make, writing nothing.
	DryRun bool
}

// Outcome is what a run produced; the data of run_starlark's result.
type Outcome struct {
	Target string `json:"target,omitempty"`
	Code   string `json:"code"`
	// Result is the value of __result__ as JSON values (nil when unset).
	Result any `json:"result"`
	// Output is what the script printed (capped; OutputTruncated says so).
	Output          string `json:"output"`
	OutputTruncated bool   `json:"output_truncated,omitempty"`
	// Changes is the change set: every file the script changed, with a diff. After a
	// dry run or a failure it is what the script would have changed: nothing of it
	// was written.
	Changes []FileChange `json:"changes"`
	DryRun  bool         `json:"dry_run"`
	// Applied says the changes are in the vault (false after a dry run or a failure).
	Applied   bool     `json:"applied"`
	ToolCalls int      `json:"tool_calls"`
	Steps     uint64   `json:"steps"`
	Warnings  []string `json:"warnings,omitempty"`
	// Failure says why the script stopped, nil when it finished.
	Failure *Failure `json:"failure,omitempty"`
}

// Failure is why a script stopped.
type Failure struct {
	Code    tool.Code `json:"error_code"`
	Message string    `json:"message"`
	// Limit names the limit that stopped it, if one did.
	Limit string `json:"limit,omitempty"`
	// Line is the script line where it stopped (0 when unknown).
	Line int `json:"line,omitempty"`
}

// ToolError is the Starlark error raised when a tool called by a script fails. It
// stops the script (Starlark has no try); the run's Failure carries its code and
// message.
type ToolError struct {
	Tool    string
	Code    tool.Code
	Message string
}

// Error names the tool, its error code and its message.
func (e *ToolError) Error() string {
	return fmt.Sprintf("%s failed (error_code %s): %s", e.Tool, e.Code, e.Message)
}

// run is the state of one script run.
type run struct {
	r      *Runner
	ctx    context.Context
	call   tool.Call
	budget *budget
	thread *starlark.Thread

	tx *library.Tx // the script's transaction

	mu        sync.Mutex
	stopped   *LimitError
	out       bytes.Buffer
	truncated bool
	calls     int
	warnings  []string
	toolErr   *ToolError
}

// stop cancels the thread because of a limit; the first reason wins.
func (x *run) stop(l *LimitError) {
	x.mu.Lock()
	if x.stopped == nil {
		x.stopped = l
	}
	x.mu.Unlock()
	x.thread.Cancel(l.Error())
}

// Run runs one script on behalf of call: every tool call it makes carries actor
// script, the caller's library, turn and session, and the caller's actor as Origin, so
// the permission guard judges it as the caller. Its writes are one transaction
// (library.Tx): held apart until the script ends, then applied together if the script
// finished (and DryRun is false) and nobody changed their files meanwhile, else
// forgotten. The error is non-nil only when the infrastructure broke (the changes
// could not be applied for another reason than a conflict); the Outcome then still
// says what happened.
func (r *Runner) Run(ctx context.Context, call *tool.Call, in Input) (Outcome, error) {
	o := Outcome{Target: in.Target, Code: in.Code, DryRun: in.DryRun, Changes: []FileChange{}}
	f, err := r.compile(in.Code)
	if err != nil {
		o.Failure = &Failure{Code: CodeScriptError, Message: "the script does not compile: " + err.Error()}
		return o, nil
	}
	id := strings.ToLower(rand.Text()[:16])
	tx := library.NewTx()
	x := r.newRun(ctx, call, id)
	x.tx = tx
	runCtx, cancel := context.WithTimeout(ctx, r.lim.Wall+time.Second)
	defer cancel()
	x.ctx = runCtx
	globals, runErr := x.exec(f)
	o.Steps, o.ToolCalls = x.thread.ExecutionSteps(), x.calls
	o.Output, o.OutputTruncated, o.Warnings = x.out.String(), x.truncated, x.warnings
	if runErr == nil {
		o.Result, runErr = x.result(globals)
	}
	if runErr != nil {
		o.Failure = x.failure(runErr)
	}
	o.Changes = r.changes(tx)
	if o.Failure != nil || in.DryRun {
		tx.Discard() // nothing was written: there is nothing to put back
		return o, nil
	}
	// The script's changes land together, each on the condition that nobody changed
	// its file since the script read it: a script is never applied over someone
	// else's write, and nothing of it is applied then.
	_, err = tx.Commit(context.WithoutCancel(ctx))
	switch {
	case errors.Is(err, library.ErrConflict):
		o.Failure = &Failure{Code: CodeConflict, Message: fmt.Sprintf("the script ran, but its changes were not applied: %v; nothing was written, and their version stays. Run the script again: it will read their version", conflictSubject(err))}
		return o, nil
	case err != nil:
		return o, fmt.Errorf("run_starlark: apply the script's changes: %w", err)
	}
	o.Applied = true
	return o, nil
}

// conflictSubject says, from a commit's conflict, which file someone else changed.
func conflictSubject(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s was changed by someone else while the script ran", pe.Path)
	}
	return err.Error()
}

// compile parses and checks a script and rewrites it for the size limits.
func (r *Runner) compile(code string) (*syntax.File, error) {
	f, err := parse(code)
	if err != nil {
		return nil, err
	}
	var bad error
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Ident:
			if strings.HasPrefix(n.Name, "_mt_") && bad == nil {
				bad = fmt.Errorf("%s: names starting with _mt_ are reserved", n.NamePos)
			}
		case *syntax.LoadStmt:
			if bad == nil {
				bad = fmt.Errorf("%s: load() is not available: every tool is already a builtin", n.Load)
			}
		}
		return bad == nil
	})
	if bad != nil {
		return nil, bad
	}
	rewriteFile(f)
	return f, nil
}

func (r *Runner) newRun(ctx context.Context, call *tool.Call, id string) *run {
	c := tool.Call{Actor: tool.ActorScript, Via: RunStarlark.Name()}
	if call != nil {
		// A script the person approved (it named a destructive tool) makes its calls
		// approved: the approval was for the script, every call of it.
		c.Library, c.Turn, c.Session, c.Origin, c.Approved = call.Library, call.Turn, call.Session, call.Actor, call.Approved
	}
	if c.Turn == "" {
		c.Turn = "script-" + id
	}
	x := &run{r: r, ctx: ctx, call: c, budget: &budget{lim: r.lim}}
	th := &starlark.Thread{Name: RunStarlark.Name()}
	th.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, errors.New("load() is not available in scripts")
	}
	th.Print = x.print
	th.SetMaxExecutionSteps(r.lim.Steps)
	th.OnMaxSteps = func(*starlark.Thread) {
		x.stop(&LimitError{"steps", fmt.Sprintf("the script ran %d steps, the most allowed; do less per script or avoid endless loops", r.lim.Steps)})
	}
	x.thread = th
	if r.onThread != nil {
		r.onThread(th)
	}
	return x
}

// exec runs the compiled file until it ends, fails, or a limit or ctx stops it.
func (x *run) exec(f *syntax.File) (starlark.StringDict, error) {
	pre := x.predeclared()
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return nil, fmt.Errorf("the script does not compile: %w", err)
	}
	timer := time.AfterFunc(x.r.lim.Wall, func() {
		x.stop(&LimitError{"time", fmt.Sprintf("the script ran longer than %v, the most allowed; do less per script", x.r.lim.Wall)})
	})
	defer timer.Stop()
	defer x.heapWatch()()
	stopCtx := context.AfterFunc(x.ctx, func() {
		if errors.Is(x.ctx.Err(), context.DeadlineExceeded) {
			x.stop(&LimitError{"time", fmt.Sprintf("the script ran longer than %v, the most allowed", x.r.lim.Wall)})
			return
		}
		x.thread.Cancel("the run was canceled")
	})
	defer stopCtx()
	return prog.Init(x.thread, pre)
}

// print captures print output up to the limit.
func (x *run) print(_ *starlark.Thread, msg string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	room := x.r.lim.Output - x.out.Len()
	if len(msg)+1 > room {
		x.truncated = true
		if room > 0 {
			x.out.WriteString(msg[:room])
		}
		return
	}
	x.out.WriteString(msg)
	x.out.WriteByte('\n')
}

// result converts __result__ to JSON values, within the result limit.
func (x *run) result(globals starlark.StringDict) (any, error) {
	v, ok := globals["__result__"]
	if !ok {
		return nil, nil
	}
	j, err := toJSONValue(v, 0)
	if err != nil {
		return nil, fmt.Errorf("__result__ cannot be returned: %w", err)
	}
	b, err := json.Marshal(j)
	if err != nil {
		return nil, fmt.Errorf("__result__ cannot be returned: %w", err)
	}
	if len(b) > x.r.lim.Result {
		return nil, &LimitError{"result", fmt.Sprintf("__result__ is %d bytes as JSON, more than the %d allowed; return less (a summary, or the first items)", len(b), x.r.lim.Result)}
	}
	return j, nil
}

// failure describes why the run stopped.
func (x *run) failure(err error) *Failure {
	f := &Failure{Code: CodeScriptError}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		for i := range ee.CallStack { // innermost first: a builtin's frame has no line
			if pos := ee.CallStack.At(i).Pos; pos.Line > 0 {
				f.Line = int(pos.Line)
				break
			}
		}
	}
	x.mu.Lock()
	stopped := x.stopped
	x.mu.Unlock()
	var le *LimitError
	var te *ToolError
	msg := err.Error()
	if ee != nil {
		msg = ee.Msg
	}
	switch {
	case stopped != nil:
		f.Code, f.Limit, msg = CodeLimit, stopped.Limit, "stopped by the "+stopped.Error()
	case errors.As(err, &le):
		f.Code, f.Limit, msg = CodeLimit, le.Limit, "stopped by the "+le.Error()
	case errors.As(err, &te):
		f.Code = te.Code
	case x.toolErr != nil && strings.Contains(msg, x.toolErr.Error()):
		f.Code = x.toolErr.Code
	}
	if f.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", f.Line, msg)
	}
	f.Message = msg
	return f
}
