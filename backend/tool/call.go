package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// The actors that call tools; an MCP client is MCPActor(name).
const (
	ActorAgent  = "agent"
	ActorUser   = "user"
	ActorCLI    = "cli"
	ActorScript = "script"
)

// LibraryParam is the argument every tool takes to name the library it acts on. When a
// call carries it, the registry copies it into Call.Library before the guard runs.
const LibraryParam = "library_name"

// LibraryArg declares the library_name argument: a tool's input embeds it. Handlers
// read the library from Call.Library, where the registry puts it; Go callers set
// Call.Library rather than the field. A tool whose library_name means something else
// says so with Describe.
type LibraryArg struct {
	LibraryName string `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
}

// MCPActor returns the actor of an MCP client: "mcp:<client>".
func MCPActor(client string) string { return "mcp:" + client }

// Call says who is calling a tool, and on whose behalf; the registry passes a copy of
// it to the guard and the handler. Add fields here as callers need them.
type Call struct {
	// Actor is "agent", "user", "cli", "script" or "mcp:<client>".
	Actor string
	// Library is the library the call acts on: the caller's default, replaced by the
	// library_name argument when the call has one. Empty means the default library.
	Library string
	// Turn identifies the agent turn (or script run, or MCP session) the call belongs
	// to, so that its changes form one change set.
	Turn string
	// Session identifies the chat session or MCP connection, if any.
	Session string
	// Via names the tool that made this call on the caller's behalf (run_starlark),
	// or is empty for a direct call.
	Via string
	// Approved says the person approved this very call when it was put to them (a
	// call the policy holds for approval: see Request.Judge and NeedsPerson), in the
	// window, through an MCP client, or at the terminal. A script's calls carry the
	// approval of the script.
	Approved bool
	// Origin is the actor of the call that started this one (the caller of
	// run_starlark), or empty for a direct call. Permission guards judge a call made on
	// someone's behalf as that someone, so a script never escapes its caller's rights.
	Origin string
}

// Guard decides whether a call may run. It sees the call (with Library resolved) and
// the request: the tool, and the arguments validated and decoded into its input,
// which Request.Judge and NeedsPerson judge by the tool's policy. It returns nil to
// let the call through, or the result to answer instead (permission_denied,
// approval_required).
type Guard func(call *Call, req Request) *Result

// PanicError is the error returned when a handler panicked; the result says
// error_code internal.
type PanicError struct {
	// Tool is the name of the tool that panicked.
	Tool string
	// Value is what the handler panicked with.
	Value any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// Error says which tool panicked and with what.
func (e *PanicError) Error() string { return fmt.Sprintf("tool %s panicked: %v", e.Tool, e.Value) }

// prepare parses, validates and decodes the arguments. It returns the decoded input
// (a pointer to the tool's In), the argument map, or the invalid_arguments result.
func (t *Tool) prepare(raw json.RawMessage) (any, map[string]any, *Result) {
	t.ready()
	if t.err != nil {
		return nil, nil, t.invalid([]string{"the tool's schema is broken (" + t.err.Error() + "); report this to the MemoTree developers"})
	}
	m, problem := parseArgs(raw)
	if problem != "" {
		return nil, nil, t.invalid([]string{problem})
	}
	c := &checker{}
	c.check(m, t.schema, nil)
	if len(c.problems) == 0 && t.backstop {
		if p := backstop(t.resolved, m); p != "" {
			c.problems = append(c.problems, p)
		}
	}
	if len(c.problems) > 0 {
		return nil, nil, t.invalid(c.problems)
	}
	in := t.newIn()
	if p := decodeStrict(raw, in); p != "" {
		// The schema accepted the arguments, so the cause is a number such as 3.0 for
		// an integer field: decode the checked values, which encode it as 3, instead.
		in = t.newIn()
		if b, err := json.Marshal(m); err != nil || decodeStrict(b, in) != "" {
			return nil, nil, t.invalid([]string{p})
		}
	}
	return in, m, nil
}

// invalid builds the invalid_arguments result: the problems, then the usage.
func (t *Tool) invalid(problems []string) *Result {
	r := Fail(CodeInvalidArguments, "invalid arguments for %s: %s\nusage: %s",
		t.name, strings.Join(problems, "; "), t.usage)
	return &r
}

// execute runs the handler, turning a returned error or a panic into a result; the
// error is returned as well, for logging.
func (t *Tool) execute(ctx context.Context, call *Call, in any) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Tool: t.name, Value: v, Stack: debug.Stack()}
			msg, _ := Clip(fmt.Sprint(v), 300)
			res = Fail(CodeInternal, "%s failed: internal error: %s", t.name, msg)
		}
	}()
	res, data, err := t.run(ctx, call, in)
	if err != nil {
		code := CodeInternal
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			code = CodeCanceled
		}
		if advice := fsfault.Advice(err); advice != "" {
			// Not a broken program: the disk. The call is answered, not an error.
			return Fail(CodeDiskFull, "%s failed: %v. %s", t.name, err, advice), nil
		}
		return Fail(code, "%s failed: %v", t.name, err), fmt.Errorf("tool %s: %w", t.name, err)
	}
	if res.Status == "" {
		res.Status = StatusSuccess
		if res.ErrorCode != "" {
			res.Status = StatusError
		}
	}
	if res.Status != StatusError {
		if res.Data != nil {
			// The output is the data of a success: a handler that set both is a bug.
			return Fail(CodeInternal, "%s failed: internal error: a successful result carries its data as the output", t.name),
				fmt.Errorf("tool %s: a successful result set Data instead of returning it as the output", t.name)
		}
		res.Data = data
	}
	return res, nil
}
