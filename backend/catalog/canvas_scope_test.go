package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/canvas"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// oneLibrary is a hand-written Libraries of one library.
type oneLibrary struct{ l *library.Library }

func (o oneLibrary) Library(string) (*library.Library, error) { return o.l, nil }
func (o oneLibrary) Libraries() []*library.Library            { return []*library.Library{o.l} }
func (o oneLibrary) Permission(string) tool.Permission        { return tool.PermWrite }

// TestViewScope checks the scope current_view that search_nodes uses: the notes a
// view shows, and no others.
func TestViewScope(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a/One.md": "one", "a/Two.md": "two", "Top.md": "top"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := library.Open(t.Context(), "t", dir, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := tool.NewRegistry()
	e := &env{ws: oneLibrary{l}, canvases: canvas.NewSet()}
	if err := r.Register(canvasTools(e)...); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(t.Context(), &tool.Call{Actor: tool.ActorAgent}, "expand_node", []byte(`{"entity_name": "a/One", "view_name": "v"}`)); err != nil || res.IsError() {
		t.Fatalf("expand_node: %v %s", err, res.Message)
	}
	in, fail := e.viewScope(t.Context(), &tool.Call{}, "v")
	if fail != nil {
		t.Fatal(fail.Message)
	}
	for p, want := range map[string]bool{"a/One.md": true, "Top.md": true, "a/Two.md": false} {
		if got := in(vpath.Path(p)); got != want {
			t.Errorf("%s in view v: %v, want %v", p, got, want)
		}
	}
	if _, fail := e.viewScope(t.Context(), &tool.Call{}, "../bad"); fail == nil || fail.ErrorCode != tool.CodeInvalidArguments {
		t.Errorf("a bad view name: %v", fail)
	}
}
