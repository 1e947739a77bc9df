package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
	"github.com/memotree/memotree/internal/wait"
)

// client is how a test's MCP client connects: its protocol version and whether (and
// how) it asks the person through elicitation.
type client struct {
	protocol string
	answer   func(*mcp.ElicitRequest) *mcp.ElicitResult // nil: no elicitation
	noMRTR   bool
}

// serve opens a fresh demo vault under permission propose, and connects a client.
func serve(t *testing.T, c client) (*mcp.ClientSession, string, *[]string) {
	t.Helper()
	cs, dirs, asked := serveLibraries(t, c, "demo")
	return cs, dirs[0], asked
}

// serveLibraries opens a fresh demo vault for each name (the first is the default
// library), all under permission propose, and connects a client; it returns the
// vaults' folders and the questions the client was asked.
func serveLibraries(t *testing.T, c client, names ...string) (*mcp.ClientSession, []string, *[]string) {
	t.Helper()
	var specs []workspace.Spec
	var dirs []string
	for _, name := range names {
		dir := filepath.Join(t.TempDir(), name)
		if err := demo.CopyTo(dir); err != nil {
			t.Fatal(err)
		}
		specs, dirs = append(specs, workspace.Spec{Name: name, Path: dir}), append(dirs, dir)
	}
	srv, _ := newServer(t, specs, workspace.Options{Lazy: true})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(t.Context(), st, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	asked := &[]string{}
	opts := &mcp.ClientOptions{}
	if c.noMRTR {
		opts.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	if c.answer != nil {
		opts.ElicitationHandler = func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			*asked = append(*asked, r.Params.Message)
			mu.Unlock()
			return c.answer(r), nil
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "Test Client", Version: "1"}, opts).Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: c.protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, dirs, asked
}

func accept(*mcp.ElicitRequest) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}
}

func decline(*mcp.ElicitRequest) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} }

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// TestDestructiveCallsWaitForThePerson: under the default permission (propose), a
// client's delete_entities runs only once the person said yes — through the client's
// own question (MCP elicitation, on the newest protocol and on older ones) — and not
// when they say no; a client that cannot ask gets a result that says how to allow it.
func TestDestructiveCallsWaitForThePerson(t *testing.T) {
	for _, c := range []struct {
		name     string
		client   client
		wantGone bool
		want     string
	}{
		{"no elicitation, no window", client{}, false, "--permission demo=write"},
		{"elicitation accepted (2026-07-28)", client{answer: accept}, true, ""},
		{"elicitation declined (2026-07-28)", client{answer: decline}, false, "declined"},
		{"elicitation accepted (2025-11-25)", client{protocol: "2025-11-25", answer: accept}, true, ""},
		{"elicitation declined (2025-06-18)", client{protocol: "2025-06-18", answer: decline}, false, "declined"},
		{"accepted without the box ticked", client{answer: func(*mcp.ElicitRequest) *mcp.ElicitResult {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}
		}}, false, "declined"},
		{"dismissed", client{protocol: "2025-11-25", answer: func(*mcp.ElicitRequest) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "cancel"} }}, false, "dismissed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs, dir, asked := serve(t, c.client)
			e, _ := call(t, cs, "delete_entities", map[string]any{"entity_names": []string{"Welcome"}})
			if gone := !exists(dir, "Welcome.md"); gone != c.wantGone {
				t.Fatalf("Welcome deleted = %v, want %v: %+v", gone, c.wantGone, e)
			}
			if c.wantGone != (e.Status == "success") {
				t.Errorf("result %+v", e)
			}
			if !c.wantGone && (e.ErrorCode != string(tool.CodeApprovalRequired) || !strings.Contains(e.Message, c.want)) {
				t.Errorf("refusal %+v, want approval_required saying %q", e, c.want)
			}
			if c.client.answer != nil && (len(*asked) != 1 || !strings.Contains((*asked)[0], "delete_entities") || !strings.Contains((*asked)[0], "Test Client")) {
				t.Errorf("the person was asked %q", *asked)
			}
		})
	}
}

// Every destructive call waits, through a script too; reads, writes and dry runs do
// not ask.
func TestWhatWaitsForThePerson(t *testing.T) {
	cs, dir, asked := serve(t, client{answer: decline})
	waits := []struct {
		name string
		args map[string]any
	}{
		{"delete_entities", map[string]any{"entity_names": []string{"Welcome"}}},
		{"merge_entities", map[string]any{"source_names": []string{"Welcome"}, "target_name": "meta"}},
		{"garbage_collect_relations", map[string]any{"dry_run": false}},
		{"delete_relations", map[string]any{"relations": []map[string]any{{"from": "Ada Lovelace", "to": "Charles Babbage", "type": "worked with"}}}},
		{"run_starlark", map[string]any{"target": "hide a delete", "code": "f = delete_entities\nf(entity_names=['Welcome'])"}},
	}
	for _, w := range waits {
		before := len(*asked)
		e, _ := call(t, cs, w.name, w.args)
		if len(*asked) != before+1 || e.ErrorCode != string(tool.CodeApprovalRequired) {
			t.Errorf("%s: asked %d times, result %+v", w.name, len(*asked)-before, e)
		}
	}
	if !exists(dir, "Welcome.md") {
		t.Fatal("Welcome.md is gone")
	}
	for _, free := range []struct {
		name string
		args map[string]any
	}{
		{"read_entities", map[string]any{"entity_names": []string{"Welcome"}}},
		{"create_entity", map[string]any{"entity_name": "mcp/New", "content": "x"}},
		{"garbage_collect_relations", map[string]any{}},
		{"run_starlark", map[string]any{"target": "read", "code": "__result__ = read_entities(entity_names=['Welcome'])"}},
	} {
		before := len(*asked)
		if e, _ := call(t, cs, free.name, free.args); e.Status != "success" || len(*asked) != before {
			t.Errorf("%s: %+v, asked %d times", free.name, e, len(*asked)-before)
		}
	}
}

// An approval answers the call it was asked for, once: a state forged, replayed or
// moved to another call's arguments is refused.
func TestApprovalStateIsForThatCallOnly(t *testing.T) {
	cs, dir, _ := serve(t, client{answer: accept, noMRTR: true})
	ask := func(args map[string]any, state string, resp mcp.InputResponseMap) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_entities", Arguments: args, RequestState: state, InputResponses: resp})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	yes := mcp.InputResponseMap{approvalInput: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	welcome := map[string]any{"entity_names": []string{"Welcome"}}
	if res := ask(welcome, "forged", yes); !res.IsError || exists(dir, "Welcome.md") == false {
		t.Fatalf("a forged state deleted: %+v", res)
	}
	first := ask(welcome, "", nil)
	if !first.NeedsInput() || first.RequestState == "" || first.InputRequests[approvalInput] == nil {
		t.Fatalf("no input request: %+v", first)
	}
	if res := ask(map[string]any{"entity_names": []string{"meta"}}, first.RequestState, yes); !res.IsError || !exists(dir, "meta.md") {
		t.Fatalf("the state of Welcome's deletion deleted another note: %+v", res)
	}
	if res := ask(welcome, first.RequestState, yes); res.IsError || exists(dir, "Welcome.md") {
		t.Fatalf("the answered call did not run: %+v", res)
	}
	mustWrite(t, filepath.Join(dir, "Welcome.md"), "# Welcome again\n")
	// Once the server reads the note again, a replay that were taken would delete it.
	wait.Until(t, "the server to read the rewritten Welcome", func() error {
		rr, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read_entities", Arguments: welcome})
		if err == nil && !rr.IsError && strings.Contains(fmt.Sprint(rr.StructuredContent), "Welcome again") {
			return nil
		}
		return fmt.Errorf("read_entities: %+v, %v", rr, err)
	})
	if res := ask(welcome, first.RequestState, yes); !res.IsError || !exists(dir, "Welcome.md") {
		t.Fatalf("a replayed state deleted again: %+v", res)
	}
}

// A client that cannot ask the person: a MemoTree window open on the vault (here a
// Host on a Vault of its own, as another process would have) shows the request, and
// the call runs when the person approves it there, not when they decline.
func TestTheWindowAsksWhenTheClientCannot(t *testing.T) {
	cs, dir, _ := serve(t, client{protocol: "2025-11-25"})
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	reqs := make(chan approval.Request, 4)
	h, err := approval.Serve(v.State(), func(added []approval.Request, _ []string) {
		for _, r := range added {
			reqs <- r
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, approve := range []bool{false, true} {
		done := make(chan envelope, 1)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_entities", Arguments: map[string]any{"entity_names": []string{"Welcome"}}})
			var e envelope
			if err == nil {
				b, _ := json.Marshal(res.StructuredContent)
				_ = json.Unmarshal(b, &e)
			}
			done <- e
		}()
		var r approval.Request
		select {
		case r = <-reqs:
		case <-time.After(20 * time.Second):
			t.Fatal("the window was not asked")
		}
		if r.Tool != "delete_entities" || r.From != "mcp:Test Client" || r.Library != "demo" || !strings.Contains(r.Args, "Welcome") {
			t.Errorf("the window was asked %+v", r)
		}
		if err := h.Answer(r.ID, approve); err != nil {
			t.Fatal(err)
		}
		e := <-done
		if gone := !exists(dir, "Welcome.md"); gone != approve || (e.Status == "success") != approve {
			t.Errorf("approve=%v: Welcome deleted %v, result %+v", approve, gone, e)
		}
		if !approve && !strings.Contains(e.Message, "the person declined") {
			t.Errorf("the refusal says %q", e.Message)
		}
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
