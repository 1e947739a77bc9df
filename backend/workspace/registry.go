package workspace

import (
	"cmp"
	"fmt"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/script"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/tools"
)

// historyTools commit or discard: with PermPropose the agent and MCP clients may look,
// but these stay with the person.
var historyTools = map[string]bool{"git_commit": true, "git_checkout": true}

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
		err := tools.Register(r, tools.Deps{Libraries: w, Canvases: w.Canvases(), Summarizer: w.summarizer, Embedder: w.embedder, Bus: w.bus, AtClose: w.atClose})
		if err == nil {
			err = script.Register(r, w, script.Limits{})
		}
		w.registry.reg, w.registry.err = r, err
	})
	return w.registry.reg, w.registry.err
}

// guard enforces the permission of the library a call acts on. The person (actor user
// or cli) is never restricted; with PermPropose a call the person approved (the
// agent's destructive calls wait for that) may commit or discard too. A call a script
// makes is judged as its Origin, the caller of run_starlark; run_starlark itself is let
// through, since every call its script makes passes here.
func (w *Workspace) guard(call *tool.Call, t *tool.Tool) *tool.Result {
	actor := cmp.Or(call.Origin, call.Actor)
	if actor == tool.ActorUser || actor == tool.ActorCLI || t.Name() == script.ToolName {
		return nil
	}
	perm := w.Permission(call.Library)
	var r tool.Result
	switch {
	case perm == PermRead && t.Class() != tool.ReadOnly:
		r = tool.Fail(tool.CodePermissionDenied, "library %q is read-only for %s: %s changes notes and was not run; tell the person what you would change instead", w.libName(call.Library), actorKind(actor), t.Name())
	case perm != PermWrite && historyTools[t.Name()] && !(perm == PermPropose && call.Approved):
		r = tool.Fail(tool.CodePermissionDenied, "in library %q only the person commits or discards (permission %s): %s was not run; the changes wait in the git panel for review", w.libName(call.Library), perm, t.Name())
	default:
		return nil
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
	if strings.HasPrefix(actor, "mcp:") {
		return "MCP clients"
	}
	return "the agent"
}

// Catalogue returns a registry holding every tool, as Registry does, over no library:
// for listing the tools and their schemas (`memotree call --list`), which do not
// depend on a vault. A call of one of its tools answers that no library is open.
func Catalogue() (*tool.Registry, error) {
	r := tool.NewRegistry()
	if err := tools.Register(r, tools.Deps{Libraries: noLibraries{}}); err != nil {
		return nil, err
	}
	if err := script.Register(r, noLibraries{}, script.Limits{}); err != nil {
		return nil, err
	}
	return r, nil
}

// noLibraries is a workspace with nothing mounted.
type noLibraries struct{}

func (noLibraries) Library(name string) (*library.Library, error) {
	return nil, fmt.Errorf("%w %q: no library is open", ErrNoLibrary, name)
}
func (noLibraries) Libraries() []*library.Library { return nil }
func (noLibraries) PermissionOf(string) string    { return string(PermRead) }
