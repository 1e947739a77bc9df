package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
	"github.com/memotree/memotree/internal/wait"
)

// connect serves a fresh copy of the demo vault and returns a client session talking
// to it over in-memory transports.
func connect(t *testing.T, perm tool.Permission) (*mcp.ClientSession, *workspace.Workspace, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	srv, ws := newServer(t, []workspace.Spec{{Name: "demo", Path: dir, Permission: perm}}, workspace.Options{Watch: true})
	go srv.Follow(t.Context())
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(t.Context(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ws, dir
}

// envelope decodes a tool result's structured content.
type envelope struct {
	Status    string          `json:"status"`
	Message   string          `json:"message"`
	ErrorCode string          `json:"error_code"`
	Data      json.RawMessage `json:"data"`
}

// outputSchemas holds, per client session, the resolved output schema of each tool
// as tools/list gave it.
var outputSchemas sync.Map // *mcp.ClientSession → map[string]*jsonschema.Resolved

// outputSchemaOf returns the output schema the server lists for the tool name.
func outputSchemaOf(t *testing.T, cs *mcp.ClientSession, name string) *jsonschema.Resolved {
	t.Helper()
	if m, ok := outputSchemas.Load(cs); ok {
		return m.(map[string]*jsonschema.Resolved)[name]
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*jsonschema.Resolved{}
	for _, mt := range list.Tools {
		b, _ := json.Marshal(mt.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: output schema %s: %v", mt.Name, b, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: resolve output schema: %v", mt.Name, err)
		}
		m[mt.Name] = rs
	}
	outputSchemas.Store(cs, m)
	return m[name]
}

// call calls a tool as an MCP client and checks the answer: the structured content is
// the result envelope, following the tool's output schema, and the text content is
// the YAML of the same result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (envelope, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if rs := outputSchemaOf(t, cs, name); rs == nil {
		t.Errorf("%s: the server lists no output schema", name)
	} else {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: the structured content does not follow the output schema: %v\n%s", name, err, b)
		}
	}
	var e envelope
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	if len(res.Content) != 1 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "status: "+e.Status) {
		t.Errorf("%s: the text content is not the YAML of the same result: %+v", name, res.Content)
	}
	if res.IsError != (e.Status == "error") {
		t.Errorf("%s: isError=%v but status %q", name, res.IsError, e.Status)
	}
	return e, res
}

func TestToolsListMatchesRegistry(t *testing.T) {
	cs, ws, _ := connect(t, tool.PermWrite)
	reg, _ := ws.Registry()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(reg.List()) {
		t.Fatalf("MCP lists %d tools, the registry has %d", len(res.Tools), len(reg.List()))
	}
	for _, mt := range res.Tools {
		rt, ok := reg.Get(mt.Name)
		if !ok {
			t.Errorf("MCP lists %s, unknown to the registry", mt.Name)
			continue
		}
		if mt.Annotations == nil || mt.Annotations.ReadOnlyHint != (rt.Class().String() == "read_only") ||
			mt.Annotations.DestructiveHint == nil || *mt.Annotations.DestructiveHint != (rt.Class().String() == "destructive") {
			t.Errorf("%s: annotations %+v do not match class %s", mt.Name, mt.Annotations, rt.Class())
		}
		if mt.Description == "" {
			t.Errorf("%s has no description", mt.Name)
		}
		schema, _ := json.Marshal(mt.InputSchema)
		if strings.Contains(string(schema), `"null"`) {
			t.Errorf("%s: schema has a null type, which some providers reject: %s", mt.Name, schema)
		}
		out, _ := json.Marshal(mt.OutputSchema)
		var got, want map[string]any
		if err := json.Unmarshal(out, &got); err != nil || json.Unmarshal(rt.OutputSchema(), &want) != nil {
			t.Fatalf("%s: output schema %s: %v", mt.Name, out, err)
		}
		if !reflect.DeepEqual(got, want) || got["type"] != "object" {
			t.Errorf("%s: output schema %s, want the registry's object schema %s", mt.Name, out, rt.OutputSchema())
		}
	}
}

// TestEveryToolAnswersWithAnEnvelope calls every tool with no arguments: each must
// answer with a result (an error one where arguments are required), never a protocol
// error or a crash, and leave the vault as it was.
func TestEveryToolAnswersWithAnEnvelope(t *testing.T) {
	cs, ws, dir := connect(t, tool.PermWrite)
	before := treeHash(t, dir)
	reg, _ := ws.Registry()
	for _, rt := range reg.List() {
		if rt.Class().String() != "read_only" {
			continue // writes with no arguments are refused by validation; checked below
		}
		e, _ := call(t, cs, rt.Name(), map[string]any{})
		if e.Status == "" {
			t.Errorf("%s: no status", rt.Name())
		}
	}
	for _, rt := range reg.List() {
		if rt.Class().String() == "read_only" {
			continue
		}
		if e, _ := call(t, cs, rt.Name(), map[string]any{"bogus_argument": 1}); e.Status != "error" || e.ErrorCode != "invalid_arguments" {
			t.Errorf("%s with a bogus argument: %+v, want invalid_arguments", rt.Name(), e)
		}
	}
	if after := treeHash(t, dir); after != before {
		t.Error("calls that should change nothing changed the vault")
	}
}

func TestCreateReadRenameOverMCP(t *testing.T) {
	cs, _, dir := connect(t, tool.PermPropose)
	if e, _ := call(t, cs, "create_entity", map[string]any{"entity_name": "ideas/Cybernetics", "entity_type": "concept", "content": "See [[Claude Shannon]]."}); e.Status != "success" {
		t.Fatalf("create_entity: %+v", e)
	}
	e, _ := call(t, cs, "read_entities", map[string]any{"entity_names": []string{"Cybernetics"}})
	if e.Status != "success" || !strings.Contains(string(e.Data), "Claude Shannon") {
		t.Fatalf("read_entities: %+v", e)
	}
	if e, _ := call(t, cs, "rename_entity", map[string]any{"old_name": "ideas/Cybernetics", "new_name": "ideas/Control and Communication"}); e.Status != "success" {
		t.Fatalf("rename_entity: %+v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "ideas", "Control and Communication.md")); err != nil {
		t.Fatalf("renamed file: %v", err)
	}
	// The journey names the client as the actor.
	j, err := os.ReadFile(filepath.Join(dir, "journey.yaml"))
	if err != nil || !strings.Contains(string(j), "mcp:go-test") {
		t.Errorf("journey does not name the MCP client: %s (%v)", j, err)
	}
}

func TestReadPermissionRefusesWrites(t *testing.T) {
	cs, _, dir := connect(t, tool.PermRead)
	before := treeHash(t, dir)
	e, _ := call(t, cs, "create_entity", map[string]any{"entity_name": "x", "content": "no"})
	if e.ErrorCode != "permission_denied" {
		t.Fatalf("create_entity in a read library: %+v", e)
	}
	if treeHash(t, dir) != before {
		t.Fatal("a refused write changed the vault")
	}
}

func TestResourcesAndUpdates(t *testing.T) {
	cs, _, dir := connect(t, tool.PermWrite)
	res, err := cs.ListResources(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resources) < 30 {
		t.Fatalf("%d resources, want every note of the demo vault", len(res.Resources))
	}
	uri := ""
	for _, r := range res.Resources {
		if r.Name == "Welcome" {
			uri = r.URI
		}
	}
	rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "# Welcome") {
		t.Fatalf("read %s: %+v, %v", uri, rr, err)
	}
	for _, bad := range []string{"memotree://demo/../../etc/passwd", "memotree://demo/.git/config", "memotree://nope/Welcome.md", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: bad}); err == nil {
			t.Errorf("read %s: no error", bad)
		}
	}
	// A note created by another program becomes a resource.
	if err := os.WriteFile(filepath.Join(dir, "Outside.md"), []byte("made elsewhere"), 0o644); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "a note made outside to become a resource", func() bool {
		res, err := cs.ListResources(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(res.Resources, func(r *mcp.Resource) bool { return r.Name == "Outside" })
	})
}

// newServer opens a workspace of specs with opts (closed when t ends) and serves its
// tools: the server, and the workspace behind it.
func newServer(t *testing.T, specs []workspace.Spec, opts workspace.Options) (*Server, *workspace.Workspace) {
	t.Helper()
	ws, err := workspace.Open(t.Context(), specs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(t.Context(), Deps{Registry: reg, Libraries: ws, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, ws
}
