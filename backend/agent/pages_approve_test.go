package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/agent"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// TestRemovePageAsksInTheLibraryItsIndexNames checks that the approval gate judges a
// page tool by the library its page_index names: the default library is writable,
// but remove_page of a page of a library under propose waits for the person.
func TestRemovePageAsksInTheLibraryItsIndexNames(t *testing.T) {
	srv := llmtest.New(t, llmtest.ToolCall("call_1", "remove_page", `{"page_index":"kept:Welcome"}`), llmtest.Text("done"))
	home, kept := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "kept")
	for _, d := range []string{home, kept} {
		if err := demo.CopyTo(d); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(context.Background(), []workspace.Spec{{Name: "home", Path: home, Permission: tool.PermWrite}, {Name: "kept", Path: kept, Permission: tool.PermPropose}}, workspace.Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, err := ws.Registry()
	if err != nil {
		t.Fatal(err)
	}
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	asked := ""
	a := &agent.Agent{Registry: reg, Model: model,
		Approve: func(_ context.Context, name, args string) (bool, error) { asked = name + " " + args; return false, nil }}
	hist, _, err := a.Turn(context.Background(), nil, "remove the welcome page of kept")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(asked, "remove_page") || !strings.Contains(hist[2].Content, "the person declined") {
		t.Errorf("asked %q; result %q", asked, hist[2].Content)
	}
	if _, err := os.Stat(filepath.Join(kept, "Welcome.md")); err != nil {
		t.Errorf("the page was removed without approval: %v", err)
	}
}
