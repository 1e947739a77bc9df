package face

import (
	"context"

	"github.com/memotree/memotree/backend/mcpserver"
	"github.com/memotree/memotree/backend/workspace"
)

// MCP is `memotree mcp`, open: the workspace and the MCP server over it, which the
// command runs on stdio or streamable HTTP.
type MCP struct {
	Workspace *workspace.Workspace
	Server    *mcpserver.Server
}

// OpenMCP opens the libraries of f as a serving face (watched, so that clients hear of
// changes) and the MCP server over the workspace's one registry, reporting version;
// the server follows the vault until ctx ends. A call the library's permission holds
// for the person is put to them through the client, or a window open on the library
// (package mcpserver).
func OpenMCP(ctx context.Context, f Flags, version string) (*MCP, error) {
	ws, err := open(ctx, f, f.face(workspace.Serving))
	if err != nil {
		return nil, err
	}
	reg, err := ws.Registry()
	if err != nil {
		ws.Close()
		return nil, err
	}
	srv, err := mcpserver.New(ctx, mcpserver.Deps{Registry: reg, Libraries: ws, Version: version})
	if err != nil {
		ws.Close()
		return nil, err
	}
	go srv.Follow(ctx)
	return &MCP{Workspace: ws, Server: srv}, nil
}

// Close closes the workspace.
func (m *MCP) Close() { m.Workspace.Close() }

// open checks f and opens its libraries as face says.
func open(ctx context.Context, f Flags, face workspace.Face) (*workspace.Workspace, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	return workspace.OpenFace(ctx, f.Libraries, face)
}
