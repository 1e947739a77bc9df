package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/workspace"
)

// TestSearchIndexBuildPublishesProgress: the first search of a library builds its
// full-text index from the notes on disk, and says how far it is on the bus; the second
// search, with nothing changed, builds nothing and says nothing.
func TestSearchIndexBuildPublishesProgress(t *testing.T) {
	dir := t.TempDir()
	const notes = 90
	for i := range notes {
		p := filepath.Join(dir, "n", fmt.Sprintf("note %02d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "# Note %d\n\nlighthouse keeper %d\n", i, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "lib", Path: dir}}, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	events, cancel := ws.Bus().Subscribe(4096)
	defer cancel()
	reg := tool.NewRegistry()
	if err := catalog.Register(reg, catalog.Deps{SearchTimeout: testSearchTimeout, Libraries: ws, Bus: ws.Bus()}); err != nil {
		t.Fatal(err)
	}
	collect := func() []event.TaskProgressEvent {
		var out []event.TaskProgressEvent
		for len(events) > 0 {
			if e := <-events; e.Topic == event.TaskProgress {
				out = append(out, e.Data.(event.TaskProgressEvent))
			}
		}
		return out
	}
	if res := kitCall(t, reg, "search_nodes", `{"query":"lighthouse","max_results":3}`); res.Status != "success" {
		t.Fatalf("search: %+v", res)
	}
	got := collect()
	if len(got) < 2 {
		t.Fatalf("got %+v, want the start and the end of the index build", got)
	}
	if got[0] != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskSearchIndex, Done: 0, Total: notes}) {
		t.Errorf("first %+v", got[0])
	}
	if last := got[len(got)-1]; last != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskSearchIndex, Done: notes, Total: notes, Final: true}) {
		t.Errorf("last %+v", last)
	}
	if res := kitCall(t, reg, "search_nodes", `{"query":"keeper","max_results":3}`); res.Status != "success" {
		t.Fatalf("search: %+v", res)
	}
	if again := collect(); len(again) != 0 {
		t.Errorf("a search of an index that is current published %+v", again)
	}
}
