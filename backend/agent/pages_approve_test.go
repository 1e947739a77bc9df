package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/approval"
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
	model, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m", Backoff: time.Millisecond, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	asked := ""
	a, err := ws.Agent(model, func(_ context.Context, r approval.Request) (bool, error) {
		asked = r.Library + ": " + r.Tool + " " + r.Args
		return false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hist, _, err := a.Turn(context.Background(), nil, "remove the welcome page of kept")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(asked, "kept: remove_page") || !strings.Contains(hist[2].Content, "the person declined") {
		t.Errorf("asked %q; result %q", asked, hist[2].Content)
	}
	if _, err := os.Stat(filepath.Join(kept, "Welcome.md")); err != nil {
		t.Errorf("the page was removed without approval: %v", err)
	}
}
