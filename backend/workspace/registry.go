package workspace

import (
	"cmp"
	"fmt"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/script"
	"github.com/memotree/memotree/backend/tool"
)

// registry is built once per workspace.
type registry struct {
	once sync.Once
	reg  *tool.Registry
	err  error
}

// Registry returns the one tool registry of the workspace, with every tool of the
// catalogue and the library permissions enforced for the agent, scripts and MCP clients.
func (w *Workspace) Registry() (*tool.Registry, error) {
	w.registry.once.Do(func() {
		r := tool.NewRegistry()
		r.SetGuard(w.guard)
		err := catalog.Register(r, catalog.Deps{Libraries: w, Canvases: w.Canvases(), Summarizer: w.summarizer, Embedder: w.embedder, Bus: w.bus, AtClose: w.atClose, BuildInBackground: w.watch})
		if err == nil {
			err = script.Register(r, script.Limits{})
		}
		w.registry.reg, w.registry.err = r, err
	})
	return w.registry.reg, w.registry.err
}

// guard enforces the permission of the library a call acts on, as the registry's
// policy judges it (tool.Request.Judge, from the tool's declaration and the call's
// input). The person is never restricted by a permission: in the window (actor user)
// what they click runs; at a terminal (actor cli, `memotree call`) a call that deletes or
// discards runs once they confirmed it (Approved), unless they gave the library a
// permission (--permission): then their call is judged by it as the agent's would be,
// the terminal answering what waits for them. A call a script makes is judged as
// its Origin, the caller of run_starlark. Under propose, a call that waits for the
// person is answered CodeApprovalRequired, which a face that can ask the person turns
// into a question (and a call with Approved once they say yes).
func (w *Workspace) guard(call *tool.Call, req tool.Request) *tool.Result {
	t := req.Tool()
	actor := cmp.Or(call.Origin, call.Actor)
	switch {
	case actor == tool.ActorUser:
		return nil
	case actor == tool.ActorCLI && !w.permissionGiven(call.Library):
		if call.Approved || !req.NeedsPerson() {
			return nil
		}
		r := tool.Fail(tool.CodeApprovalRequired, "%s deletes or discards notes, so it runs once you confirm it: answer y when asked at a terminal, or pass --yes (memotree call --yes ...)", t.Name())
		return &r
	}
	perm := w.Permission(call.Library)
	v, why := req.Judge(perm, call.Approved)
	var r tool.Result
	switch {
	case v == tool.Allow:
		return nil
	case why == tool.ReasonApproval:
		r = tool.Fail(tool.CodeApprovalRequired, "%s waits for the person's approval in library %q (permission %s) and was not run; nothing changed", t.Name(), w.libName(call.Library), perm)
	case why == tool.ReasonReadOnly:
		r = tool.Fail(tool.CodePermissionDenied, "library %q is read-only for %s: %s changes notes and was not run; tell the person what you would change instead", w.libName(call.Library), actorKind(actor), t.Name())
	default:
		r = tool.Fail(tool.CodePermissionDenied, "in library %q only the person commits (permission %s): %s was not run; the changes wait in the git panel for review", w.libName(call.Library), perm, t.Name())
	}
	return &r
}

func (w *Workspace) libName(name string) string {
	if l, err := w.Library(name); err == nil {
		return l.Name()
	}
	return name
}

func actorKind(actor string) string {
	switch {
	case strings.HasPrefix(actor, "mcp:"):
		return "MCP clients"
	case actor == tool.ActorCLI:
		return "memotree call (--permission)"
	}
	return "the agent"
}

// Catalogue returns a registry holding every tool, as Registry does, over no library:
// for listing the tools and their schemas (`memotree call --list`), which do not
// depend on a vault. A call of one of its tools answers that no library is open.
func Catalogue() (*tool.Registry, error) {
	r := tool.NewRegistry()
	if err := catalog.Register(r, catalog.Deps{Libraries: noLibraries{}}); err != nil {
		return nil, err
	}
	if err := script.Register(r, script.Limits{}); err != nil {
		return nil, err
	}
	return r, nil
}

// noLibraries is a workspace with nothing mounted.
type noLibraries struct{}

func (noLibraries) Library(name string) (*library.Library, error) {
	return nil, fmt.Errorf("%w %q: no library is open", ErrNoLibrary, name)
}
func (noLibraries) Libraries() []*library.Library     { return nil }
func (noLibraries) Permission(string) tool.Permission { return tool.PermRead }
