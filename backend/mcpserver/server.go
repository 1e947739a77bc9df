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
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/graph"
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

	mu sync.Mutex
	// listed holds the URI of every note resource the server lists, so that a change
	// to a note already listed does not announce a new list.
	listed map[string]bool
}

// instructions tell a client's model how to begin.
const instructions = `MemoTree serves a Markdown knowledge vault (Obsidian-compatible, kept in git).
Start with read_manual: it says how this library is organised. Entities are notes named by
their path without .md ("people/Ada Lovelace"); a unique short name or an alias also works.
Every result has status, message and data; on an error, the message says what to do instead.`

// New returns a server with every tool of the registry and every note as a resource;
// it waits for each library's scan (until ctx ends) and fails when one fails.
func New(ctx context.Context, d Deps) (*Server, error) {
	s := &Server{deps: d, approvals: newApprovals(), listed: map[string]bool{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "memotree", Version: d.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		CompletionHandler:  s.complete,
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	s.mcp.AddReceivingMiddleware(canonicalURIs)
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
		g, err := l.Graph(ctx)
		if err != nil {
			return nil, fmt.Errorf("serve library %s over MCP: %w", l.Name(), err)
		}
		var rs []*mcp.Resource
		for _, p := range g.Notes() {
			r := resource(l.Name(), p)
			s.listed[r.URI] = true
			rs = append(rs, r)
		}
		for _, r := range rs {
			s.mcp.AddResource(r, s.readResource)
		}
	}
	return s, nil
}

// graph returns the graph of the library named name ("" for the default).
func (s *Server) graph(ctx context.Context, name string) (*graph.Graph, error) {
	l, err := s.deps.Libraries.Library(name)
	if err != nil {
		return nil, err
	}
	return l.Graph(ctx)
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
		// The result envelope whose data is the tool's typed output; the structured
		// content of every answer follows it.
		OutputSchema: outputSchema(t),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title(),
			ReadOnlyHint:    a.ReadOnlyHint,
			DestructiveHint: &destructive,
			OpenWorldHint:   &openWorld,
		},
	}
}

// outputSchema returns the tool's output schema, or nil when it cannot be derived (the
// catalogue's tests keep that from happening).
func outputSchema(t *tool.Tool) any {
	if s := t.OutputSchema(); s != nil {
		return s
	}
	return nil
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
		r, refused := approval.Pending(s.deps.Registry, call, name, args, s.libraryName)
		if refused != nil {
			return s.refusal(*refused), nil
		}
		if r != nil {
			if out := s.approve(ctx, req, call, *r); out != nil {
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

// readResource returns a note's text. The URI may name the note percent-encoded, as
// the resource list does, or with its characters as they are ("memotree://notes/people/Zoë
// Ada.md"), as a person or a model types it.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	lib, p, ok := parseURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	l, err := s.deps.Libraries.Library(lib)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := l.Vault().ReadFile(p)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(b)}}}, nil
}

// parseURI reads "memotree://LIBRARY/PATH", each part percent-encoded or not, as a
// library name and a note's path.
func parseURI(uri string) (string, vpath.Path, bool) {
	rest, ok := strings.CutPrefix(uri, "memotree://")
	if !ok {
		return "", "", false
	}
	lib, path, ok := strings.Cut(rest, "/")
	if !ok {
		return "", "", false
	}
	unescape := func(s string) string {
		if u, err := url.PathUnescape(s); err == nil {
			return u
		}
		return s // a bare "%" in a raw name
	}
	p, err := vpath.Parse(unescape(path))
	if err != nil || p.Ignored() || !p.IsNote() {
		return "", "", false
	}
	return unescape(lib), p, true
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

// canonicalURIs rewrites the URI of a resources/read, subscribe or unsubscribe
// request to the form the resource list gives, so that a URI written with its
// characters as they are ("memotree://notes/people/Zoë Ada.md") finds the note (the
// SDK matches URIs as strings) and a subscription hears of its changes.
func canonicalURIs(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var uri *string
		switch r := req.(type) {
		case *mcp.ReadResourceRequest:
			if r.Params != nil {
				uri = &r.Params.URI
			}
		case *mcp.SubscribeRequest:
			if r.Params != nil {
				uri = &r.Params.URI
			}
		case *mcp.UnsubscribeRequest:
			if r.Params != nil {
				uri = &r.Params.URI
			}
		}
		if uri != nil {
			if lib, p, ok := parseURI(*uri); ok {
				*uri = URI(lib, p)
			}
		}
		return next(ctx, method, req)
	}
}

// apply follows one change of a library's files: a new note is listed (clients hear
// that the list changed), a removed one is unlisted (likewise), and a note that stays
// is announced as updated to the clients subscribed to it, by its URI as listed and as
// written with its characters as they are.
func (s *Server) apply(ctx context.Context, c event.VaultChange) {
	l, err := s.deps.Libraries.Library(c.Library)
	if err != nil {
		return
	}
	g, err := l.Graph(ctx)
	if err != nil {
		return
	}
	for _, raw := range c.Paths {
		p := vpath.Path(raw)
		if !p.IsNote() {
			continue
		}
		uri := URI(l.Name(), p)
		s.mu.Lock()
		listed := s.listed[uri]
		switch has := g.Has(p); {
		case has && !listed:
			s.listed[uri] = true
			s.mcp.AddResource(resource(l.Name(), p), s.readResource)
		case !has && listed:
			delete(s.listed, uri)
			s.mcp.RemoveResources(uri)
		}
		s.mu.Unlock()
		if g.Has(p) {
			_ = s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}
	}
}

// String describes the server for logs.
func (s *Server) String() string {
	return fmt.Sprintf("memotree MCP server (%d tools)", len(s.deps.Registry.List()))
}
