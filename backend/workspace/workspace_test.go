package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/tool"
)

func TestParseSpec(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		in       string
		wantName string
		wantErr  bool
	}{
		{"notes=" + dir, "notes", false},
		{dir, filepath.Base(dir), false},
		{"=" + dir, "", true},
		{"notes=", "", true},
		{"bad name=" + dir, "", true},
		{"../x=" + dir, "", true},
	}
	for _, tt := range tests {
		s, err := ParseSpec(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && (s.Name != tt.wantName || !filepath.IsAbs(s.Path))) {
			t.Errorf("ParseSpec(%q) = %+v, %v", tt.in, s, err)
		}
	}
	for in, want := range map[string]tool.Permission{"read": tool.PermRead, " Propose ": tool.PermPropose, "write": tool.PermWrite} {
		if got, err := tool.ParsePermission(in); err != nil || got != want {
			t.Errorf("tool.ParsePermission(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := tool.ParsePermission("admin"); err == nil {
		t.Error("tool.ParsePermission accepted admin")
	}
}

func TestOpenRefusesBadLibraries(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, specs := range [][]Spec{
		nil,
		{{Name: "a", Path: filepath.Join(dir, "missing")}},
		{{Name: "a", Path: file}},
		{{Name: "a", Path: dir}, {Name: "a", Path: dir}},
	} {
		if ws, err := Open(t.Context(), specs, Options{}); err == nil {
			ws.Close()
			t.Errorf("Open(%+v) succeeded", specs)
		}
	}
}

// TestPermissions checks the guard: the agent and MCP clients are held to the
// library's permission, the person in the window is not, and memotree call is held
// to it only when the person gave one.
func TestPermissions(t *testing.T) {
	ro, rw := t.TempDir(), t.TempDir()
	ws, err := Open(t.Context(), []Spec{{Name: "ro", Path: ro, Permission: tool.PermRead}, {Name: "rw", Path: rw}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if ws.Permission("rw") != tool.PermPropose || ws.Permission("") != tool.PermRead {
		t.Fatalf("permissions: rw=%s default=%s", ws.Permission("rw"), ws.Permission(""))
	}
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	create := func(actor, lib, name string) tool.Result {
		args, _ := json.Marshal(map[string]any{"entity_name": name, "content": "x", "library_name": lib})
		res, err := reg.Call(t.Context(), &tool.Call{Actor: actor}, "create_entity", args)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if r := create(tool.ActorAgent, "ro", "a"); r.ErrorCode != tool.CodePermissionDenied {
		t.Errorf("agent writing a read library: %+v", r)
	}
	if r := create(tool.MCPActor("c"), "ro", "a"); r.ErrorCode != tool.CodePermissionDenied {
		t.Errorf("MCP client writing a read library: %+v", r)
	}
	if r := create(tool.ActorCLI, "ro", "c"); r.ErrorCode != tool.CodePermissionDenied {
		t.Errorf("memotree call writing a library given read: %+v", r)
	}
	if r := create(tool.ActorUser, "ro", "a"); r.IsError() {
		t.Errorf("the person writing a read library: %+v", r)
	}
	if r := create(tool.ActorCLI, "rw", "d"); r.IsError() {
		t.Errorf("memotree call writing a library given no permission: %+v", r)
	}
	if r := create(tool.ActorAgent, "rw", "b"); r.IsError() {
		t.Errorf("agent writing a propose library: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(rw, "b.md")); err != nil {
		t.Errorf("the agent's note was not written: %v", err)
	}
	if entries, _ := os.ReadDir(ro); len(entries) != 3 { // a.md from the person, journey.yaml, .memotree
		t.Errorf("read library holds %d entries, want the person's note only", len(entries))
	}
}

// TestEveryToolSchemaResolves: schemas are resolved on first use (a one-shot call
// needs one), so this resolves every tool's schema of the real catalogue once.
func TestEveryToolSchemaResolves(t *testing.T) {
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: t.TempDir()}}, Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	if len(reg.List()) < 30 {
		t.Fatalf("the catalogue has %d tools", len(reg.List()))
	}
	for _, tl := range reg.List() {
		if err := tl.Err(); err != nil {
			t.Errorf("%s: %v", tl.Name(), err)
		}
		if s := tl.InputSchema(); !strings.Contains(string(s), `"type":"object"`) {
			t.Errorf("%s: input schema %s", tl.Name(), s)
		}
		if u := tl.Usage(); !strings.HasPrefix(u, tl.Name()+"(") {
			t.Errorf("%s: usage %q", tl.Name(), u)
		}
	}
}

// TestCloseSavesSearchIndexes: the search index a tool opened is saved and closed with
// the workspace, rather than by a timer that would fire after Close.
func TestCloseSavesSearchIndexes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\nzebra crossing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	search := func(q string) {
		t.Helper()
		res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorUser}, "search_nodes", json.RawMessage(`{"query":"`+q+`"}`))
		if err != nil || res.IsError() {
			t.Fatalf("search_nodes %s: %v %+v", q, err, res)
		}
	}
	search("zebra")
	index := filepath.Join(dir, ".memotree", "search", "index.bin")
	before, err := os.Stat(index)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"entity_name":"B","entity_type":"note","content":"okapi"}`)
	if res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorUser}, "create_entity", args); err != nil || res.IsError() {
		t.Fatalf("create_entity: %v %+v", err, res)
	}
	search("okapi") // the index takes the new note in; its save is due seconds later
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(index)
	if err != nil || !after.ModTime().After(before.ModTime()) {
		t.Errorf("Close did not save the search index (before %v, after %v, %v)", before.ModTime(), after, err)
	}
}
