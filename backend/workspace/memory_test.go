package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/internal/wait"
)

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestHugeNoteMemoryIsBoundedAndReturns: a 20 MB note of 500,000 links (which once
// took the app from 27 MB to 719 MB, and kept it there after the note was deleted)
// costs a watching workspace — index, graph, search index, the text a pattern search
// caches — a bounded amount of
// live heap, with a warning naming the note and what the index cut; once the note is
// deleted, the heap returns to where it was. The bounds are generous: they catch the
// index keeping the whole note, not a few megabytes.
func TestHugeNoteMemoryIsBoundedAndReturns(t *testing.T) {
	const glob = "longer name 0000001"
	h := openHugeNoteVault(t, glob)
	base := liveHeap()
	size := h.add(t)
	warned := false
	for _, w := range h.lib.Warnings() {
		if w.Path == "huge.md" && strings.Contains(w.Message, fmt.Sprintf("the first %d of %d links", library.MaxLinksPerNote, h.links)) {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning naming huge.md and the links cut: %v", h.lib.Warnings())
	}
	wait.Within(t, 2*time.Minute, "the search index to hold huge.md", func() bool { return h.search(t) })
	h.pattern(t, glob)
	with := liveHeap() - base
	t.Logf("live heap: %d MB more with the note of %d MB", with>>20, size>>20)
	if with > 6*size {
		t.Errorf("the %d MB note of %d links costs %d MB of live heap; want at most six times its size", size>>20, h.links, with>>20)
	}

	h.remove(t)
	wait.Within(t, 2*time.Minute, "huge.md to leave the search index", func() bool { return !h.search(t) })
	h.pattern(t, glob)
	after := liveHeap() - base
	t.Logf("live heap: %d MB more after it was deleted", after>>20)
	if after > 4<<20 {
		t.Errorf("after the note was deleted the live heap stays %d MB above where it was; want at most 4 MB", after>>20)
	}
}

// hugeNoteVault is a watching workspace over a vault of one small note, into which
// the memory tests move a 20 MB note of links (4 MB under the race detector) and
// delete it again.
type hugeNoteVault struct {
	dir   string
	ws    *Workspace
	reg   *tool.Registry
	lib   *library.Library
	links int // the huge note's links
}

// openHugeNoteVault opens the workspace and runs both searches once (the ranked one
// builds its index, a pattern's caches the text it reads), as a window in use has.
func openHugeNoteVault(t *testing.T, glob string) *hugeNoteVault {
	t.Helper()
	if testing.Short() {
		t.Skip("writes a 20 MB note")
	}
	h := &hugeNoteVault{dir: t.TempDir(), links: 500_000}
	if raceDetector {
		h.links = 100_000
	}
	if err := os.WriteFile(filepath.Join(h.dir, "a.md"), []byte("# A\n\nwords to search\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: h.dir}}, Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	h.ws = ws
	h.reg, _ = ws.Registry()
	h.lib, _ = ws.Library("")
	h.search(t)
	h.pattern(t, glob)
	return h
}

// search says whether the ranked search finds the huge note: the search index
// follows the library's changes a moment after the graph does.
func (h *hugeNoteVault) search(t *testing.T) bool {
	res, err := h.reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "search_nodes", []byte(`{"query":"longer"}`))
	if err != nil {
		t.Fatalf("search_nodes: %v", err)
	}
	return !res.IsError() && strings.Contains(fmt.Sprint(res.Data), "huge")
}

// pattern runs a pattern search, which reads and caches the text of the notes its
// glob does not rule out.
func (h *hugeNoteVault) pattern(t *testing.T, glob string) {
	args := fmt.Sprintf(`{"pattern_glob":%q,"max_results":1}`, glob)
	if _, err := h.reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "search_anywhere", []byte(args)); err != nil {
		t.Fatalf("search_anywhere: %v", err)
	}
}

// add writes the huge note beside the vault and moves it in, so that the watcher sees
// it whole, and waits for the graph to hold it; it returns the note's size.
func (h *hugeNoteVault) add(t *testing.T) int64 {
	var b strings.Builder
	b.Grow(h.links * 40)
	for i := range h.links {
		fmt.Fprintf(&b, "[[Person with a longer name %07d]] ", i)
		if i%8 == 7 {
			b.WriteString("\n")
		}
	}
	tmp := filepath.Join(t.TempDir(), "huge.md")
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(h.dir, "huge.md")); err != nil {
		t.Fatal(err)
	}
	wait.Within(t, 2*time.Minute, "huge.md to be indexed", func() bool { return inGraph(t, h.lib, "huge.md") })
	return int64(b.Len())
}

// remove deletes the huge note and waits for the graph to let it go.
func (h *hugeNoteVault) remove(t *testing.T) {
	if err := os.Remove(filepath.Join(h.dir, "huge.md")); err != nil {
		t.Fatal(err)
	}
	wait.Within(t, 2*time.Minute, "huge.md to leave the index", func() bool { return !inGraph(t, h.lib, "huge.md") })
}

// inGraph tells whether the library's graph holds p, failing the test when the graph
// cannot be read.
func inGraph(t *testing.T, l *library.Library, p vpath.Path) bool {
	t.Helper()
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return g.Has(p)
}

// TestRenameReachesLinksPastTheIndexLimit: a note whose only link to X comes after the
// links the index keeps still has it rewritten when X is renamed.
func TestRenameReachesLinksPastTheIndexLimit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range library.MaxLinksPerNote + 5 {
		fmt.Fprintf(&b, "[[t%d]]\n", i)
	}
	b.WriteString("and at the end [[X]]\n")
	for name, text := range map[string]string{"X.md": "# X\n", "list.md": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := Open(t.Context(), []Spec{{Name: "v", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg, _ := ws.Registry()
	res, err := reg.Call(t.Context(), &tool.Call{Actor: tool.ActorCLI}, "rename_entity", []byte(`{"old_name":"X","new_name":"Y"}`))
	if err != nil || res.IsError() {
		t.Fatalf("rename: %v %+v", err, res)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "list.md"))
	if !strings.HasSuffix(string(got), "and at the end [[Y]]\n") {
		t.Errorf("the link past the index's limit was not rewritten: ...%s", got[len(got)-40:])
	}
}
