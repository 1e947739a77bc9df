package library

import (
	"fmt"
	"testing"

	"github.com/memotree/memotree/backend/event"
)

// TestScanPublishesProgress opens a library of real files and checks that its scan
// reported its start and end on the bus, counting the notes (not the attachments).
func TestScanPublishesProgress(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"pic.png": "png"}
	for i := range 120 {
		files[fmt.Sprintf("notes/n%03d.md", i)] = fmt.Sprintf("Note %d links [[n%03d]].\n", i, (i+1)%120)
	}
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
	if len(got) < 2 {
		t.Fatalf("got %+v, want a start and an end", got)
	}
	first, last := got[0], got[len(got)-1]
	if first != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskScan, Done: 0, Total: 120}) {
		t.Errorf("first %+v", first)
	}
	if last != (event.TaskProgressEvent{Library: "lib", Kind: event.TaskScan, Done: 120, Total: 120, Final: true}) {
		t.Errorf("last %+v", last)
	}
	for _, e := range got[1 : len(got)-1] {
		if e.Final || e.Done > e.Total {
			t.Errorf("intermediate event %+v", e)
		}
	}
}
