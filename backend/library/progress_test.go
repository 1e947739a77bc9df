package library

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/internal/wait"
)

// ringOfNotes returns n notes under notes/, each linking to the next.
func ringOfNotes(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("notes/n%03d.md", i)] = fmt.Sprintf("Note %d links [[n%03d]].\n", i, (i+1)%n)
	}
	return files
}

// TestScanPublishesProgress opens a library of real files and checks that its scan
// reported its start and end on the bus, counting the notes (not the attachments).
// The start comes before the folder is walked (0 notes known), so that a client
// asking for the tasks meanwhile sees the scan; then the count.
func TestScanPublishesProgress(t *testing.T) {
	dir := t.TempDir()
	files := ringOfNotes(120)
	files["pic.png"] = "png"
	writeFiles(t, dir, files)
	bus := event.NewBus()
	ch, cancel := bus.Subscribe(1024)
	defer cancel()
	l, err := Open(t.Context(), "lib", dir, Options{Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var got []event.TaskProgressEvent
	for len(ch) > 0 {
		if e := <-ch; e.Topic == event.TaskProgress {
			got = append(got, e.Data.(event.TaskProgressEvent))
		}
	}
	if len(got) < 3 {
		t.Fatalf("got %+v, want a start, the count and an end", got)
	}
	first, counted, last := got[0], got[1], got[len(got)-1]
	if first != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskScan, Done: 0, Total: 0}) {
		t.Errorf("first %+v, want the start before the walk", first)
	}
	if counted != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskScan, Done: 0, Total: 120}) {
		t.Errorf("second %+v, want the notes counted", counted)
	}
	if last != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskScan, Done: 120, Total: 120, Final: true}) {
		t.Errorf("last %+v", last)
	}
	for _, e := range got[2 : len(got)-1] {
		if e.Final || e.Done > e.Total {
			t.Errorf("intermediate event %+v", e)
		}
	}
}

// TestBackgroundScan opens a library whose first scan runs in the background: the
// graph a caller waits for is the whole vault, the scan's progress ends on the bus,
// and an edit made right after Open is not lost.
func TestBackgroundScan(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, ringOfNotes(300))
	bus := event.NewBus()
	ch, cancel := bus.Subscribe(1024)
	defer cancel()
	l, err := Open(t.Context(), "lib", dir, Options{Bus: bus, Watch: true, Background: true, Debounce: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	writeFiles(t, dir, map[string]string{"late.md": "written while the scan runs [[n000]]\n"})
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Stats().Notes; got < 300 {
		t.Fatalf("the graph has %d notes after the background scan, want at least 300", got)
	}
	wait.For(t, "the note written right after Open to reach the graph", func() bool { return g.Has("late.md") })
	final := false
	for len(ch) > 0 {
		if e := <-ch; e.Topic == event.TaskProgress {
			p := e.Data.(event.TaskProgressEvent)
			final = final || p.Final && p.Kind == event.TaskScan && p.Error == ""
		}
	}
	if !final {
		t.Error("no final scan progress event without an error")
	}
}

// TestBackgroundScanClose closes a library while its background scan may still
// run: Close returns, and the vault is left as it was.
func TestBackgroundScanClose(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 2000 {
		files[fmt.Sprintf("n%04d.md", i)] = "text [[x]]\n"
	}
	writeFiles(t, dir, files)
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- l.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close hung while the background scan ran")
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) < 2000 {
		t.Fatalf("the vault holds %d entries after Close (%v)", len(ents), err)
	}
}

// TestScanEndsWhenTheGraphIsLoaded holds the scan's final progress event back until
// the graph is loaded: the window reloads its file tree on that event, and a tree
// asked for before the links were resolved was the folder's listing, without entity
// types, which stayed until the next change (at 100k notes resolving the links takes
// seconds). Many links make the time between the notes read and the graph loaded
// long enough for a subscriber woken by an early event to see it.
func TestScanEndsWhenTheGraphIsLoaded(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 1500 {
		var links strings.Builder
		for j := 1; j <= 40; j++ {
			fmt.Fprintf(&links, "[[n%04d]] ", (i+j*37)%1500)
		}
		files[fmt.Sprintf("n%04d.md", i)] = "---\ntype: person\n---\n" + links.String() + "\n"
	}
	writeFiles(t, dir, files)
	bus := event.NewBus()
	ch, cancel := bus.Subscribe(4096)
	defer cancel()
	l, err := Open(t.Context(), "lib", dir, Options{Bus: bus, Watch: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for e := range ch {
		p, ok := e.Data.(event.TaskProgressEvent)
		if !ok || p.Kind != event.TaskScan || !p.Final {
			continue
		}
		if p.Error != "" {
			t.Fatalf("the scan failed: %s", p.Error)
		}
		if !l.Scanned() {
			t.Fatal("the scan's final event came before the graph was loaded")
		}
		return
	}
}

// TestBackgroundScanOutlivesARequestThatGivesUp: a window's first request for the
// graph, made as the library opens and given up in the middle of the scan (the page
// reloads, a fetch is aborted), neither runs the scan nor cancels it: the background
// scan runs once, to its end. Before, the request could win the race to start the
// scan, which then died with the request and started over (a 10k window's tree came
// after 4-5 s instead of 1 s, one start in three).
func TestBackgroundScanOutlivesARequestThatGivesUp(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 500 {
		files[fmt.Sprintf("n%04d.md", i)] = "text [[x]]\n"
	}
	writeFiles(t, dir, files)
	for try := range 20 { // the request raced the scan's goroutine: try it often
		var scans atomic.Int32
		gone, giveUp := context.WithCancel(t.Context())
		l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Background: true, BeforeRead: func(int) {
			if scans.Add(1) == 1 {
				giveUp() // the request gives up while the first scan reads the notes
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Graph(gone); !errors.Is(err, context.Canceled) {
			t.Errorf("try %d: the request that gave up got %v, want context.Canceled", try, err)
		}
		g, err := l.Graph(t.Context())
		if err != nil || g.Stats().Notes != 500 {
			t.Fatalf("try %d: graph after the scan: %v", try, err)
		}
		if n := scans.Load(); n != 1 {
			t.Fatalf("try %d: %d scans read the notes, want 1: the request's giving up cancelled the scan", try, n)
		}
		giveUp()
		l.Close()
	}
}
