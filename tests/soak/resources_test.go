package soak

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/llm/llmtest"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/demo"
)

// usage is what the process holds: goroutines, open file descriptors and live heap.
type usage struct {
	goroutines, fds int
	heap            uint64
}

func (u usage) String() string {
	return fmt.Sprintf("%d goroutines, %d open files, %.1f MB of live heap", u.goroutines, u.fds, float64(u.heap)/(1<<20))
}

// measure collects garbage and reads the process's usage. Goroutines and files that
// are winding down (a closed connection, a finished turn) get up to two seconds.
func measure(t *testing.T, settle func(u usage) bool) usage {
	t.Helper()
	var u usage
	for deadline := time.Now().Add(2 * time.Second); ; {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("no /proc/self/fd to count open files: %v", err)
		}
		u = usage{goroutines: runtime.NumGoroutine(), fds: len(fds), heap: ms.HeapAlloc}
		if settle == nil || settle(u) || time.Now().After(deadline) {
			return u
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestResourcesStayFlat edits notes through the desktop app's API and runs chat turns
// (each a tool call that writes a note, then a streamed answer, against the in-repo
// fake OpenAI server) on one watched workspace, the way the app runs. After a warm-up
// it measures goroutines, open file descriptors and the live heap, runs the soak, and
// measures again: goroutines and files may grow by at most five, the heap by half
// plus 4 MB. The short form makes 100 edits and 20 turns; MEMOTREE_SOAK=N makes N
// edits and N/5 turns.
func TestResourcesStayFlat(t *testing.T) {
	edits := 100
	if s := os.Getenv("MEMOTREE_SOAK"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			t.Fatalf("MEMOTREE_SOAK=%q: want a number of writes, 10 or more", s)
		}
		edits = n
	}
	turns := edits / 5
	const warmEdits, warmTurns = 30, 6

	var replies []llmtest.Reply
	for i := range warmTurns + turns {
		replies = append(replies,
			llmtest.ToolCall(fmt.Sprintf("call_%d", i), "update_entity",
				fmt.Sprintf(`{"entity_name":"Chat log","content":"turn %d was here","mode":"append"}`, i)),
			llmtest.Text(fmt.Sprintf("Turn %d wrote its line.", i)))
	}
	srv := llmtest.New(t, replies...)
	dir := filepath.Join(t.TempDir(), "vault")
	if err := demo.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Chat log.md"), []byte("# Chat log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_BASE_URL", srv.URL())
	t.Setenv("MEMOTREE_MODEL", "test-model")
	t.Setenv("OPENAI_API_KEY", "sk-soak")
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir, Permission: tool.PermWrite}}, workspace.Options{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	api := uiapi.NewAPI(ws, uiapi.Options{Settings: llm.Resolver{Path: filepath.Join(t.TempDir(), "settings.toml")}})
	events, unsubscribe := ws.Bus().Subscribe(4096)
	defer unsubscribe()

	edit := func(i int) {
		t.Helper()
		v, err := api.Note("v", "Soak.md")
		if err != nil {
			v = uiapi.NoteView{} // first edit creates the note
		}
		res, err := api.SaveNote("v", "Soak.md", appendLine(v.Content, fmt.Sprintf("edit %d", i)), v.Hash)
		if err != nil || res.Conflict {
			t.Fatalf("edit %d: %+v, %v", i, res, err)
		}
	}
	turn := func(i int) {
		t.Helper()
		tr, err := api.ChatSend(uiapi.ChatSendInput{Prompt: fmt.Sprintf("Write turn %d", i), Library: "v"})
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		timeout := time.After(30 * time.Second)
		for {
			select {
			case e := <-events:
				if d, ok := e.Data.(event.ChatDoneEvent); ok && e.Topic == event.ChatDone && d.Turn == tr.Turn {
					if d.Error != "" {
						t.Fatalf("turn %d ended with %q", i, d.Error)
					}
					return
				}
			case <-timeout:
				t.Fatalf("turn %d did not end in 30 s", i)
			}
		}
	}
	run := func(from, edits, turns int) {
		for i := range edits {
			edit(from + i)
			if turns > 0 && i%(edits/turns) == 0 && i/(edits/turns) < turns {
				turn(from + i/(edits/turns))
			}
		}
	}

	run(0, warmEdits, warmTurns)
	srv.ForgetRequests()
	before := measure(t, nil)
	run(warmEdits, edits, turns)
	srv.ForgetRequests()
	limit := func(u usage) bool {
		return u.goroutines <= before.goroutines+5 && u.fds <= before.fds+5 && u.heap <= before.heap*3/2+4<<20
	}
	after := measure(t, limit)
	t.Logf("after the warm-up: %v; after %d edits and %d chat turns: %v", before, edits, turns, after)
	if !limit(after) {
		buf := make([]byte, 1<<20)
		t.Fatalf("resources grew: before %v, after %v (allowed: goroutines +5, files +5, heap ×1.5 + 4 MB)\ngoroutines:\n%s",
			before, after, buf[:runtime.Stack(buf, true)])
	}
	// The work was done: every edit and every turn's tool call is in its note.
	for _, c := range []struct {
		name, line string
		want       int
	}{{"Soak.md", "edit ", warmEdits + edits}, {"Chat log.md", " was here", warmTurns + turns}} {
		b, err := os.ReadFile(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(b), c.line); got != c.want {
			t.Errorf("%s holds %d lines with %q, want %d", c.name, got, c.line, c.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests after the last ForgetRequests", n)
	}
}
