package mcpserver

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// Over HTTP (memotree mcp --http), a client of an earlier protocol revision that keeps
// its session is asked through elicitation too, and the call runs only once the person
// said yes.
func TestElicitationOverHTTP(t *testing.T) {
	for _, approve := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "vault")
		if err := demo.CopyTo(dir); err != nil {
			t.Fatal(err)
		}
		srv, _ := newServer(t, []workspace.Spec{{Name: "demo", Path: dir}}, workspace.Options{Lazy: true})
		hs := httptest.NewServer(srv.HTTPHandler(nil))
		t.Cleanup(hs.Close)
		var asked []string
		opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, r.Params.Message)
			if approve {
				return accept(r), nil
			}
			return decline(r), nil
		}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "HTTP Client", Version: "1"}, opts).
			Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		e, _ := call(t, cs, "delete_entities", map[string]any{"entity_names": []string{"Welcome"}})
		cs.Close()
		if len(asked) != 1 || !strings.Contains(asked[0], "delete_entities") {
			t.Errorf("approve=%v: the person was asked %q, result %+v", approve, asked, e)
		}
		if gone := !exists(dir, "Welcome.md"); gone != approve || (e.Status == "success") != approve {
			t.Errorf("approve=%v: Welcome deleted %v, result %+v", approve, gone, e)
		}
	}
}
