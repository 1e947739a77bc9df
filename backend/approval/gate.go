package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/tool"
)

// The one path by which every face puts a call to the person. The registry's policy
// says whether a call waits for them (Pending: Registry.Check answers
// tool.CodeApprovalRequired); the face asks them where it can — the terminal, the
// window's chat panel, an MCP client, a window's queue — showing the whole call and
// the library it acts on (Request.Question, or the request's fields in the window);
// their answer, or the lack of one, becomes the call's fate in one wording (Decide).
// Gate does the three in order for the faces that can wait for the answer.

// Asker puts a request to the person and blocks until they answer: true runs the call
// once. It returns an error wrapping ErrNobody when no one can be asked here (saying
// what the person can do instead, see Nobody), ErrDismissed when they closed the
// question without answering, and any other error when no answer came (ctx ended, the
// window closed).
type Asker func(ctx context.Context, r Request) (bool, error)

// ErrNobody means no one can be asked about the call where it was made.
var ErrNobody = errors.New("no one can be asked here")

// ErrDismissed means the person closed the question without answering it.
var ErrDismissed = errors.New("the person dismissed the question")

// Nobody returns an error wrapping ErrNobody that says what the person can do instead
// ("pass --yes to allow it").
func Nobody(advice string) error { return fmt.Errorf("%w: %s", ErrNobody, advice) }

// Who names the actor of a request as the question says it: "the agent", "Claude
// Desktop (an MCP client)", "memotree call".
func Who(actor string) string {
	switch {
	case actor == tool.ActorAgent:
		return "the agent"
	case actor == tool.ActorCLI:
		return "memotree call"
	case actor == tool.ActorScript:
		return "a script"
	case actor == tool.ActorUser:
		return "you"
	case strings.HasPrefix(actor, "mcp:"):
		return strings.TrimPrefix(actor, "mcp:") + " (an MCP client)"
	case actor == "":
		return "another program"
	}
	return actor
}

// Question is the one wording of an approval, for the faces that ask in text (the
// terminal, an MCP client): who asks, the tool, the library it acts on, and the whole
// call, however long (Pending refuses one over MaxArgs). The window shows the same
// fields in the person's language.
func (r Request) Question() string {
	return fmt.Sprintf("MemoTree: %s wants to run %s in library %q, which can delete, merge or discard notes:\n%s\nAllow it?", Who(r.From), r.Tool, r.Library, r.Args)
}

// Pending asks the registry's policy whether call (of the tool name with args) waits
// for the person, and returns the request to put to them: nil when the call may be
// made as it is (the registry then runs it, or refuses it for another reason). The
// request names the library the call acts on, as Registry.Check resolves it (its
// library_name or page index), by library ("" the default library; nil keeps the
// name the call gives). A call too long to show whole is refused instead, and nobody
// is asked.
func Pending(reg *tool.Registry, call *tool.Call, name string, args json.RawMessage, library func(name string) string) (*Request, *tool.Result) {
	w := reg.Check(call, name, args)
	if w == nil || w.ErrorCode != tool.CodeApprovalRequired {
		return nil, nil
	}
	lib := call.Library
	if library != nil {
		lib = library(lib)
	}
	if len(args) > MaxArgs {
		r := tool.Fail(tool.CodeApprovalRequired, "%s was not run: its arguments are %d bytes, too long to show the person for approval (at most %d); nothing changed. Send less at a time: fewer notes per call, or a shorter script", name, len(args), MaxArgs)
		return nil, &r
	}
	return &Request{From: call.Actor, Library: lib, Tool: name, Args: string(args)}, nil
}

// Decide turns the person's answer to r (an Asker's) into the call's fate: nil when
// they said yes, otherwise the result the caller reads instead of the call's, which
// says why it did not run and that nothing changed.
func Decide(r Request, yes bool, err error) *tool.Result {
	var res tool.Result
	switch {
	case err == nil && yes:
		return nil
	case errors.Is(err, ErrNobody):
		res = tool.Fail(tool.CodeApprovalRequired, "%s waits for the person's approval in library %q and was not run: %v. Nothing changed", r.Tool, r.Library, err)
	case errors.Is(err, ErrDismissed):
		res = tool.Fail(tool.CodeApprovalRequired, "%s was not run: %v. Nothing changed; do not retry it unless the person asks", r.Tool, err)
	case err != nil:
		res = tool.Fail(tool.CodeApprovalRequired, "%s was not run: no answer came (%v). Nothing changed", r.Tool, err)
	default:
		res = tool.Fail(tool.CodeApprovalRequired, "%s was not run: the person declined. Nothing changed; do not retry it unless the person asks", r.Tool)
	}
	return &res
}

// Gate puts to the person the calls the registry's policy holds for them, through a
// face that can wait for the answer (the agent's, the terminal's).
type Gate struct {
	// Ask puts a request to the person; nil means no one can be asked here.
	Ask Asker
	// Library names the library a call acts on as the person knows it ("" is the
	// default library); nil shows the name the call gives.
	Library func(name string) string
}

// Pass decides whether call may be made: nil when it may (call.Approved is set when
// the person said yes to it), otherwise the result to answer instead.
func (g Gate) Pass(ctx context.Context, reg *tool.Registry, call *tool.Call, name string, args json.RawMessage) *tool.Result {
	r, refused := Pending(reg, call, name, args, g.Library)
	if r == nil {
		return refused
	}
	var yes bool
	err := Nobody("tell the person what it would delete or discard, so that they can do it themselves")
	if g.Ask != nil {
		yes, err = g.Ask(ctx, *r)
	}
	if res := Decide(*r, yes, err); res != nil {
		return res
	}
	call.Approved = true
	return nil
}
