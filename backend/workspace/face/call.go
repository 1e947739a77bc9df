package face

import (
	"context"
	"encoding/json"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// Call is `memotree call`, open: the person at a terminal calling one tool.
type Call struct {
	Workspace *workspace.Workspace
	Registry  *tool.Registry
}

// OpenCall opens the libraries of f as a one-shot face: each is scanned only when a
// tool first needs its link graph, and nothing watches.
func OpenCall(ctx context.Context, f Flags) (*Call, error) {
	ws, err := open(ctx, f, f.face(workspace.OneShot))
	if err != nil {
		return nil, err
	}
	reg, err := ws.Registry()
	if err != nil {
		ws.Close()
		return nil, err
	}
	return &Call{Workspace: ws, Registry: reg}, nil
}

// Run calls the tool name with args as the person at the terminal (actor cli). A call
// that waits for them (one that deletes or discards; or, in a library given a
// permission, what that permission holds for them) is first put to them through ask,
// in the one approval path (approval.Gate), and runs only once they said yes.
func (c *Call) Run(ctx context.Context, name string, args json.RawMessage, ask approval.Asker) (tool.Result, error) {
	call := &tool.Call{Actor: tool.ActorCLI}
	g := approval.Gate{Ask: ask, Library: c.Workspace.LibraryName}
	if refused := g.Pass(ctx, c.Registry, call, name, args); refused != nil {
		return *refused, nil
	}
	return c.Registry.Call(ctx, call, name, args)
}

// Close closes the workspace.
func (c *Call) Close() { c.Workspace.Close() }
