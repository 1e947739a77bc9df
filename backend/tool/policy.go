package tool

import (
	"fmt"
	"strings"
)

// Permission is what the agent and MCP clients may do in a library. The person,
// through the window or `memotree call`, is never limited by it.
type Permission string

// The permissions, from least to most.
const (
	// PermRead allows read-only tools only.
	PermRead Permission = "read"
	// PermPropose allows writes to the working tree; destructive calls (delete, merge,
	// discard, and scripts that name one) wait for the person's approval, and only the
	// person commits.
	PermPropose Permission = "propose"
	// PermWrite allows everything, commits and discards included.
	PermWrite Permission = "write"
)

// ParsePermission parses read, propose or write.
func ParsePermission(s string) (Permission, error) {
	switch p := Permission(strings.ToLower(strings.TrimSpace(s))); p {
	case PermRead, PermPropose, PermWrite:
		return p, nil
	}
	return "", fmt.Errorf("permission %q: want read, propose or write", s)
}

// CodeApprovalRequired is the error code of a call that waits for the person's
// approval (a destructive call under PermPropose) where no one was asked: a face that
// can ask the person asks, then calls again with Call.Approved.
const CodeApprovalRequired Code = "approval_required"

// policy holds what a tool's declaration says beyond its class: the facts every face
// reads to decide who may run a call (Request.Judge) and what a script may call. The
// rules that depend on a call (dryRun, calls, libraryFrom) come from the tool's
// Options and are given the call's decoded input, a pointer to the tool's In.
type policy struct {
	// notInScripts: a script cannot call the tool (run_starlark itself, git_commit).
	notInScripts bool
	// history: the tool commits or discards git history, which under PermPropose
	// stays with the person.
	history bool
	// dryRun reports whether a call only says what it would do (DryRun).
	dryRun func(in any) bool
	// calls returns the tools a call may call (Calls).
	calls func(in any) []*Tool
	// libraryFrom names the library a call acts on when it has no library_name
	// (LibraryFrom).
	libraryFrom func(in any) string
}

// Option is a rule of a tool's policy that depends on the call: DryRun, Calls,
// LibraryFrom, given to Ref.New. A rule reads the call's input decoded into the tool's
// input type In, as the handler does, so it is written once, against fields the
// compiler checks, and an Option for one input type cannot be given to a tool of
// another.
type Option[In any] struct {
	apply func(p *policy)
}

// input returns the decoded input the registry hands to a rule: in is a *In made by
// the tool's declaration (Tool.prepare), so the assertion holds by construction.
func input[In any](in any) In { return *in.(*In) }

// DryRun declares which calls of a Destructive tool only say what they would do
// (garbage_collect_relations without dry_run=false, git_checkout without
// confirmed=true): those need no approval. The handler should decide by the same
// function, so that the rule is written once.
func DryRun[In any](f func(in In) bool) Option[In] {
	return Option[In]{func(p *policy) { p.dryRun = func(in any) bool { return f(input[In](in)) } }}
}

// Calls declares that a call of the tool calls other tools of the registry, and which
// (run_starlark: the tools its code names): the call is judged as the most dangerous
// of them.
func Calls[In any](f func(in In) []*Tool) Option[In] {
	return Option[In]{func(p *policy) { p.calls = func(in any) []*Tool { return f(input[In](in)) } }}
}

// LibraryFrom lets a tool's input name the library it acts on other than by
// library_name: seed 003's page_index ("notes:people/Ada") carries its library. When a
// call has no library_name, f is given the call's input and returns the name of the
// library to act on, or "" to keep the caller's; the registry sets Call.Library from
// it before the guard runs, so the permission checked is that of the library the call
// acts on.
func LibraryFrom[In any](f func(in In) string) Option[In] {
	return Option[In]{func(p *policy) { p.libraryFrom = func(in any) string { return f(input[In](in)) } }}
}

// NotInScripts marks a tool a script may not call (its effect could not be held back
// until the script ends, or it would nest). It returns t.
func (t *Tool) NotInScripts() *Tool {
	t.policy.notInScripts = true
	return t
}

// InScripts reports whether a script may call the tool.
func (t *Tool) InScripts() bool { return !t.policy.notInScripts }

// WithHistory marks a tool that commits or discards git history: under PermPropose
// only the person runs it (a destructive one may run once the person approved the
// call). It returns t.
func (t *Tool) WithHistory() *Tool {
	t.policy.history = true
	return t
}

// History reports whether the tool commits or discards git history.
func (t *Tool) History() bool { return t.policy.history }

// Request is one call of a tool as the policy judges it: the tool, and the call's
// arguments, validated and decoded into the tool's input type, which the tool's rules
// (Option) read. The registry makes it and gives it to the guard.
type Request struct {
	tool *Tool
	in   any // a *In of tool
}

// Tool returns the tool called.
func (q Request) Tool() *Tool { return q.tool }

// destructive reports whether the call can delete or discard: a call of a Destructive
// tool, unless it is a dry run (see DryRun).
func (q Request) destructive() bool {
	t := q.tool
	return t.class == Destructive && (t.policy.dryRun == nil || !t.policy.dryRun(q.in))
}

// Verdict is what the policy says of one call by the agent or an MCP client.
type Verdict int

// The verdicts.
const (
	// Allow: the call runs.
	Allow Verdict = iota
	// Ask: the call waits for the person's approval.
	Ask
	// Refuse: the call does not run under this permission.
	Refuse
)

// Reason says what holds a call back, with Ask or Refuse.
type Reason int

// The reasons.
const (
	// NoReason goes with Allow.
	NoReason Reason = iota
	// ReasonReadOnly: the library is read-only and the tool changes notes.
	ReasonReadOnly
	// ReasonHistory: only the person commits in a library with permission propose.
	ReasonHistory
	// ReasonApproval: the call deletes or discards, and waits for the person.
	ReasonApproval
)

// NeedsPerson reports whether the call deletes or discards, directly or through the
// tools it calls (a script naming delete_entities), so that it waits for the person:
// under PermPropose for the agent and MCP clients, and at the terminal for `memotree
// call`. Tools a script names are taken at their worst, since their arguments are not
// known before it runs.
func (q Request) NeedsPerson() bool {
	if q.destructive() {
		return true
	}
	if q.tool.policy.calls == nil {
		return false
	}
	for _, c := range q.tool.policy.calls(q.in) {
		if c.class == Destructive {
			return true
		}
	}
	return false
}

// Judge decides the call when the agent or an MCP client makes it in a library with
// permission perm: under PermRead only read-only tools run (a tool that calls others
// is judged by each of its calls as it makes them); under PermPropose a call that
// NeedsPerson waits for the person unless approved says they approved this very call,
// and a tool of History that is not destructive (a commit) is refused; under
// PermWrite everything runs. The reason says, for Ask and Refuse, what holds it back.
func (q Request) Judge(perm Permission, approved bool) (Verdict, Reason) {
	t := q.tool
	switch perm {
	case PermWrite:
		return Allow, NoReason
	case PermPropose:
	default: // PermRead, or anything unknown
		if t.class != ReadOnly && t.policy.calls == nil {
			return Refuse, ReasonReadOnly
		}
		return Allow, NoReason
	}
	if t.policy.history && t.class != Destructive {
		return Refuse, ReasonHistory
	}
	if !approved && q.NeedsPerson() {
		return Ask, ReasonApproval
	}
	return Allow, NoReason
}
