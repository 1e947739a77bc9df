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
// reads to decide who may run a call (Judge) and what a script may call.
type policy struct {
	// notInScripts: a script cannot call the tool (run_starlark itself, git_commit).
	notInScripts bool
	// history: the tool commits or discards git history, which under PermPropose
	// stays with the person.
	history bool
	// dryRun reports whether a call with these arguments only says what it would do.
	dryRun func(args map[string]any) bool
	// calls names the tools a call with these arguments may call (a script's).
	calls func(args map[string]any) []string
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

// WithDryRun declares which calls of a Destructive tool only say what they would do
// (garbage_collect_relations without dry_run=false, git_checkout without
// confirmed=true): those need no approval. It returns t.
func (t *Tool) WithDryRun(f func(args map[string]any) bool) *Tool {
	t.policy.dryRun = f
	return t
}

// WithCalls declares that a call of the tool calls other tools of the registry, and
// which (run_starlark: the tools its code names): the call is judged as the most
// dangerous of them. It returns t.
func (t *Tool) WithCalls(f func(args map[string]any) []string) *Tool {
	t.policy.calls = f
	return t
}

// DestructiveCall reports whether a call of t with args can delete or discard: a
// Destructive tool, unless the call is a dry run (see WithDryRun).
func (t *Tool) DestructiveCall(args map[string]any) bool {
	return t.class == Destructive && (t.policy.dryRun == nil || !t.policy.dryRun(args))
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

// NeedsPerson reports whether a call of t with args deletes or discards, directly or
// through the tools it calls (a script naming delete_entities), so that it waits for
// the person: under PermPropose for the agent and MCP clients, and at the terminal
// for `memotree call`. Tools a script names are taken at their worst, since their
// arguments are not known before it runs.
func (r *Registry) NeedsPerson(t *Tool, args map[string]any) bool {
	if t.DestructiveCall(args) {
		return true
	}
	if t.policy.calls == nil {
		return false
	}
	for _, name := range t.policy.calls(args) {
		if c, ok := r.Get(name); ok && c.class == Destructive {
			return true
		}
	}
	return false
}

// Judge decides a call of t with args by the agent or an MCP client in a library with
// permission perm: under PermRead only read-only tools run (a tool that calls others
// is judged by each of its calls as it makes them); under PermPropose a call that
// NeedsPerson waits for the person unless approved says they approved this very call,
// and a tool of History that is not destructive (a commit) is refused; under
// PermWrite everything runs. The reason says, for Ask and Refuse, what holds it back.
func (r *Registry) Judge(perm Permission, t *Tool, args map[string]any, approved bool) (Verdict, Reason) {
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
	if !approved && r.NeedsPerson(t, args) {
		return Ask, ReasonApproval
	}
	return Allow, NoReason
}
