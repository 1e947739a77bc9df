package library

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memotree/memotree/backend/event"
)

// damagedJournal is an undo journal whose second record, not its torn end, is damaged.
const damagedJournal = `{"path":"a.md","existed":true,"data":"YQo=","post":"00"}` + "\n" + `{"path":"b.md","exi` + "\n" + `{"path":"c.md","above":".","post":"11"}` + "\n"

// waitDamageEvent waits for the recovery task that tells the window of the damaged
// journal name.
func waitDamageEvent(t *testing.T, ch <-chan event.Event, name string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case e := <-ch:
			p, ok := e.Data.(event.TaskProgressEvent)
			if e.Topic != event.TaskProgress || !ok || p.Kind != event.TaskRecovery {
				continue
			}
			if p.Final && p.Error == "" {
				// No damage at that moment: the watcher may read a journal that is
				// being written before its bytes are there (empty, so not damaged).
				continue
			}
			if !p.Final || !strings.Contains(p.Error, name) || !strings.Contains(p.Error, "memotree doctor --repair") {
				t.Errorf("recovery event %+v; want one naming %s and `memotree doctor --repair`", p, name)
			}
			return
		case <-deadline:
			t.Fatalf("no recovery event naming %s in 30 s", name)
		}
	}
}

// TestDamagedJournalIsToldToTheWindow: an undo journal that no rollback can use does
// not keep the library from opening, and the window hears of it (a recovery task,
// until dismissed, that says to run `memotree doctor --repair`): one there at the
// open, and one that appears while the library watches.
func TestDamagedJournalIsToldToTheWindow(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "A\n", ".memotree/undo-early.log": damagedJournal})
	bus := event.NewBus()
	ch, cancel := bus.Subscribe(1024)
	defer cancel()
	l, err := Open(t.Context(), "lib", dir, Options{Watch: true, Bus: bus, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatalf("open beside a damaged journal: %v", err)
	}
	defer l.Close()
	waitDamageEvent(t, ch, ".memotree/undo-early.log")
	if err := os.WriteFile(filepath.Join(dir, ".memotree", "undo-late.log"), []byte(damagedJournal), 0o644); err != nil {
		t.Fatal(err)
	}
	waitDamageEvent(t, ch, ".memotree/undo-late.log")
}
