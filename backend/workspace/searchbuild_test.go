package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/internal/vaulttest"
	"github.com/memotree/memotree/internal/wait"
)

// A workspace that watches (the app, serve, MCP) builds each library's search index
// in the background once the library is read, without a search asking for it; a
// one-shot workspace leaves it to the first search.
func TestSearchIndexBuiltInTheBackground(t *testing.T) {
	files := map[string]string{"a.md": "Alpha [[b]].\n", "b.md": "Beta.\n", "f/c.md": "Gamma.\n"}
	index := func(dir string) string { return filepath.Join(dir, ".memotree", "search", "index.bin") }

	lazy := vaulttest.New(t, files)
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: lazy}}, Options{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Registry(); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	if _, err := os.Stat(index(lazy)); err == nil {
		t.Error("a one-shot workspace built the search index")
	}

	dir := vaulttest.New(t, files)
	ws, err = Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{Watch: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.Registry(); err != nil {
		t.Fatal(err)
	}
	wait.Within(t, 60*time.Second, "the search index to be built", func() bool {
		_, err := os.Stat(index(dir))
		return err == nil
	})
}
