package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/approval"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vault"
)

// serveTwo serves "demo" (the default library) and "other", both under permission
// propose, and returns other's folder.
func serveTwo(t *testing.T, c client) (*mcp.ClientSession, string, *[]string) {
	t.Helper()
	cs, dirs, asked := serveLibraries(t, c, "demo", "other")
	return cs, dirs[1], asked
}

// The person is asked about the library the call acts on (named by library_name or
// by a page index), not the default one: the client's question names it.
func TestApprovalNamesTheLibraryTheCallActsOn(t *testing.T) {
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"delete_entities", map[string]any{"entity_names": []string{"Welcome"}, "library_name": "other"}},
		{"remove_page", map[string]any{"page_index": "other:Welcome"}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			cs, dir, asked := serveTwo(t, client{protocol: "2025-11-25", answer: decline})
			e, _ := call(t, cs, c.tool, c.args)
			if !exists(dir, "Welcome.md") || e.Status != "error" {
				t.Fatalf("other's Welcome deleted though the person declined: %+v", e)
			}
			if len(*asked) != 1 || !strings.Contains((*asked)[0], `"other"`) || strings.Contains((*asked)[0], "default library") {
				t.Errorf("the person was asked %q, want a question naming library \"other\"", *asked)
			}
		})
	}
}

// A client that cannot ask: the request goes to the window open on the library the
// call acts on, and says that library.
func TestTheWindowOfTheLibraryTheCallActsOnIsAsked(t *testing.T) {
	cs, dir, _ := serveTwo(t, client{protocol: "2025-11-25"})
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
	done := make(chan envelope, 1)
	go func() {
		e, _ := call(t, cs, "remove_page", map[string]any{"page_index": "other:Welcome"})
		done <- e
	}()
	select {
	case r := <-reqs:
		if r.Library != "other" || r.Tool != "remove_page" {
			t.Errorf("the window was asked %+v, want remove_page in library other", r)
		}
		if err := h.Answer(r.ID, false); err != nil {
			t.Fatal(err)
		}
		<-done
	case e := <-done:
		t.Fatalf("the window of library other was not asked: %+v", e)
	case <-time.After(20 * time.Second):
		t.Fatal("no answer and no request")
	}
	if !exists(dir, "Welcome.md") {
		t.Fatal("other's Welcome deleted though the person declined")
	}
}

// The person is asked about the whole call: the question shows a long script to its
// end; a call too long to show is refused, with what to do, and nobody is asked.
func TestApprovalShowsTheWholeCall(t *testing.T) {
	cs, dirs, asked := serveLibraries(t, client{protocol: "2025-11-25", answer: decline}, "demo")
	code := strings.Repeat("# tidy the headings of the people notes\n", 40) + "delete_entities(entity_names=['Welcome'])"
	call(t, cs, "run_starlark", map[string]any{"target": "tidy", "code": code})
	if len(*asked) != 1 || !strings.Contains((*asked)[0], "delete_entities(entity_names=['Welcome'])") {
		t.Errorf("the person was asked %d question(s), without the end of the script: %.300q", len(*asked), *asked)
	}
	long := strings.Repeat("# x\n", approval.MaxArgs/4) + "delete_entities(entity_names=['Welcome'])"
	e, _ := call(t, cs, "run_starlark", map[string]any{"target": "tidy", "code": long})
	if len(*asked) != 1 || e.ErrorCode != string(tool.CodeApprovalRequired) || !strings.Contains(e.Message, "too long") || !exists(dirs[0], "Welcome.md") {
		t.Errorf("a call too long to show: asked %d, %+v", len(*asked)-1, e)
	}
}
