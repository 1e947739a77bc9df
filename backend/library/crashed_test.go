package library

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

// TestCrashedBatchReachesTheGraph: a batch whose writer died after recording its
// intent — it creates made.md, linking to a.md, and removes b.md — is finished by a
// watching library with nobody writing, and the graph follows: made.md and its link
// come in, b.md goes. An undo journal an older MemoTree left beside it is not used:
// a.md, which it names, stays as it is.
func TestCrashedBatchReachesTheGraph(t *testing.T) {
	dir := t.TempDir()
	oldJournal := `{"path":"a.md","existed":true,"data":"b2xkCg==","post":"` + string(vault.HashOf([]byte("a\n"))) + `"}` + "\n"
	writeFiles(t, dir, map[string]string{"a.md": "a\n", "b.md": "b\n", ".memotree/undo-script-old.log": oldJournal})
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !inGraph(t, l, "b.md") {
		t.Fatal("b.md is not in the graph at the start")
	}

	// What a writer killed between its intent and its renames leaves: the new content
	// in a temporary file beside its target, and the intent naming both steps.
	tmp := vault.TempPrefix + "BBBBBBBBBBBBBBBBBBBBBBBBBB"
	writeFiles(t, dir, map[string]string{tmp: "made by the batch [[a]]\n",
		".memotree/intent.json.part": `{"steps":[{"target":"b.md"},{"temp":"` + tmp + `","target":"made.md"}]}`})
	if err := os.Rename(filepath.Join(dir, ".memotree", "intent.json.part"), filepath.Join(dir, ".memotree", "intent.json")); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the watching library to finish the crashed batch", func() bool {
		_, err := os.Stat(filepath.Join(dir, ".memotree", "intent.json"))
		return errors.Is(err, os.ErrNotExist)
	})
	wait.For(t, "the graph to follow the finished batch", func() bool { return inGraph(t, l, "made.md") && !inGraph(t, l, "b.md") })
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if back := g.Backlinks("a.md"); len(back) != 1 || back[0].From != "made.md" {
		t.Errorf("backlinks of a.md = %+v; want the link from made.md", back)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "a\n" {
		t.Errorf("a.md = %q: an older MemoTree's undo journal was rolled back", b)
	}
}

// inGraph tells whether the library's graph holds p, failing the test when the graph
// cannot be read.
func inGraph(t *testing.T, l *Library, p vpath.Path) bool {
	t.Helper()
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return g.Has(p)
}
