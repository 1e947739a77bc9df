// Package mcpserver serves the one tool registry over the Model Context Protocol, so
// that Claude Desktop, Cursor or any MCP client works on the vault with the same tools,
// validation and results as the in-app agent. Notes are also resources
// (memotree://LIBRARY/PATH), and clients hear when they change. A call the registry's
// policy holds for the person's approval is put to them before it runs (approve.go):
// through the client (MCP elicitation), or a MemoTree window's approval queue.
//
// Concurrency: a Server is safe for concurrent use; each tool call runs on the SDK's
// goroutine for its request.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// Libraries is what the server needs of the workspace.
type Libraries interface {
	Libraries() []*library.Library
	Library(name string) (*library.Library, error)
	Bus() *event.Bus
}

// Deps are what New needs.
type Deps struct {
	Registry  *tool.Registry
	Libraries Libraries
	// Version is reported to clients.
	Version string
}

// Server is the MCP server over one workspace.
type Server struct {
	mcp       *mcp.Server
	deps      Deps
	approvals *approvals
}

// instructions tell a client's model how to begin.
const instructions = `MemoTree serves a Markdown knowledge vault (Obsidian-compatible, kept in git).
Start with read_manual: it says how this library is organised. Entities are notes named by
their path without .md ("people/Ada Lovelace"); a unique short name or an alias also works.
Every result has status, message and data; on an error, the message says what to do instead.`

// New returns a server with every tool of the registry and every note as a resource.
func New(d Deps) *Server {
	s := &Server{deps: d, approvals: newApprovals()}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "memotree", Version: d.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		CompletionHandler:  s.complete,
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	for _, t := range d.Registry.List() {
		s.mcp.AddTool(mcpTool(t), s.handler(t.Name()))
	}
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "note",
		Title:       "A note of a MemoTree library",
		URITemplate: "memotree://{library}/{+path}",
		MIMEType:    "text/markdown",
	}, s.readResource)
	for _, l := range d.Libraries.Libraries() {
		for _, p := range l.Graph().Notes() {
			s.mcp.AddResource(resource(l.Name(), p), s.readResource)
		}
	}
	return s
}

// MCP returns the SDK server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

func mcpTool(t *tool.Tool) *mcp.Tool {
	a := t.Annotations()
	destructive := a.DestructiveHint
	openWorld := false
	return &mcp.Tool{
		Name:        t.Name(),
		Title:       t.Title(),
		Description: t.Description(),
		InputSchema: t.InputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title(),
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: &destructive,
			IdempotentHint:  a.IdempotentHint,
			OpenWorldHint:   &openWorld,
		},
	}
}

// handler runs a tool through the registry on behalf of the calling client. A call
// the registry's policy holds for the person's approval is first put to them
// (approve.go), and runs only once they said yes.
func (s *Server) handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		// One MCP session is one change set: its id is the call's turn.
		sid := sessionID(req.Session)
		call := &tool.Call{Actor: tool.MCPActor(clientName(req)), Turn: sid, Session: sid}
		if waits := s.deps.Registry.Check(call, name, args); waits != nil && waits.ErrorCode == tool.CodeApprovalRequired {
			approved, out := s.approve(ctx, req, call, name, args, *waits)
			if !approved {
				return out, nil
			}
			call.Approved = true
		}
		// The registry turns a failure into a result the model can read; the error is
		// for logs, which MCP over stdio must keep off stdout.
		res, _ := s.deps.Registry.Call(ctx, call, name, args)
		return toMCP(res), nil
	}
}

// clientName is the name the client gave (per request on the newest protocol, at
// initialisation on older ones), printable and short, or "client".
func clientName(req *mcp.CallToolRequest) string {
	if info := req.ClientInfo(); info != nil && info.Name != "" {
		return sanitize(info.Name)
	}
	return "client"
}

func sessionID(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	return ss.ID()
}

// sanitize keeps a client's self-reported name printable and short, since it lands in
// the journey.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}

// URI returns the resource URI of a note.
func URI(libraryName string, p vpath.Path) string {
	return "memotree://" + url.PathEscape(libraryName) + "/" + (&url.URL{Path: string(p)}).EscapedPath()
}

func resource(libraryName string, p vpath.Path) *mcp.Resource {
	return &mcp.Resource{URI: URI(libraryName, p), Name: p.Name(), Title: p.Name(), MIMEType: "text/markdown"}
}

// readResource returns a note's text.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "memotree" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	l, err := s.deps.Libraries.Library(u.Host)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	p, err := vpath.Parse(strings.TrimPrefix(u.Path, "/"))
	if err != nil || p.Ignored() || !p.IsNote() {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := l.Vault().ReadFile(p)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(b)}}}, nil
}

// Follow keeps the resource list and subscribers current with the vault until ctx is
// done: new notes become resources (clients get resources/list_changed), removed ones
// go, and changed ones are announced with notifications/resources/updated.
func (s *Server) Follow(ctx context.Context) {
	ch, cancel := s.deps.Libraries.Bus().Subscribe(256)
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-ch:
			if !ok {
				return
			}
			if c, ok := e.Data.(event.VaultChange); ok {
				s.apply(ctx, c)
			}
		}
	}
}

func (s *Server) apply(ctx context.Context, c event.VaultChange) {
	l, err := s.deps.Libraries.Library(c.Library)
	if err != nil {
		return
	}
	g := l.Graph()
	for _, raw := range c.Paths {
		p := vpath.Path(raw)
		if !p.IsNote() {
			continue
		}
		if g.Has(p) {
			s.mcp.AddResource(resource(l.Name(), p), s.readResource)
			_ = s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: URI(l.Name(), p)})
		} else {
			s.mcp.RemoveResources(URI(l.Name(), p))
		}
	}
}

// String describes the server for logs.
func (s *Server) String() string {
	return fmt.Sprintf("memotree MCP server (%d tools)", len(s.deps.Registry.List()))
}
