package library

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// TestCrashedChangeSetIsRolledBackWhileWatching: a watching library that sees the undo
// journal of a change set whose process is gone (nobody holds its lock) rolls it back
// at once, though nobody writes: the note the change set created leaves the graph, a
// note changed after the crash is kept, and the window hears of both (a recovery task
// whose error names the kept note).
func TestCrashedChangeSetIsRolledBackWhileWatching(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "a\n", "b.md": "b\n"})
	bus := event.NewBus()
	ch, cancel := bus.Subscribe(1024)
	defer cancel()
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Bus: bus, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	// What a killed script left: it created made.md and rewrote b.md, which someone
	// edited again after the crash.
	writeFiles(t, dir, map[string]string{"made.md": "by the script [[a]]\n", "b.md": "edited after the crash\n"})
	var journal []byte
	for _, rec := range []map[string]any{
		{"path": "made.md", "post": vault.HashOf([]byte("by the script [[a]]\n"))},
		{"path": "b.md", "existed": true, "data": []byte("b\n"), "post": vault.HashOf([]byte("b by the script\n"))},
	} {
		line, _ := json.Marshal(rec)
		journal = append(append(journal, line...), '\n')
	}
	// The script wrote through MemoTree, so .memotree exists (opening the folder alone
	// does not create it).
	if err := os.MkdirAll(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "undo-script-dead.log"), journal, 0o644); err != nil {
		t.Fatal(err)
	}

	deadline := time.After(30 * time.Second)
	for {
		select {
		case e := <-ch:
			p, ok := e.Data.(event.TaskProgressEvent)
			if e.Topic != event.TaskProgress || !ok || p.Kind != event.TaskRecovery {
				continue
			}
			if !p.Final || !strings.Contains(p.Error, "kept b.md") || p.Done != 1 || p.Total != 2 {
				t.Errorf("recovery event %+v", p)
			}
			if _, err := os.Stat(filepath.Join(dir, "made.md")); !os.IsNotExist(err) {
				t.Errorf("made.md was not rolled back: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "b.md")); string(b) != "edited after the crash\n" {
				t.Errorf("b.md = %q", b)
			}
			waitFor(t, func() bool { return !inGraph(t, l, "made.md") }, "made.md to leave the graph")
			return
		case <-deadline:
			t.Fatal("no recovery event in 30 s")
		}
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

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for stop := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(stop) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}
