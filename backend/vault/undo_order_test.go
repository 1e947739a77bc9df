package vault

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vpath"
)

// TestRollbackWhileAWriteRecords: a write of a change set holds the vault lock and is
// about to record its pre-image when the change set is rolled back (a script stopped
// while one of its calls still runs). Both finish: the write is refused (the change
// set has ended) and the rollback puts everything back. Taking the Undo's mutex and
// then the vault lock in Rollback, and the other way round in the write, deadlocked.
func TestRollbackWhileAWriteRecords(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("order")
	ctx := WithUndo(t.Context(), u)
	if _, err := v.Write(ctx, "a.md", []byte("ALPHA\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	inWrite := make(chan struct{})
	var once sync.Once
	v.beforeUndoRecord = func() {
		first := false
		once.Do(func() { first = true })
		if !first {
			return
		}
		close(inWrite)
		// Wait until the rollback has begun: it holds the Undo's mutex, or has
		// marked the change set ended.
		for {
			if !u.mu.TryLock() {
				return
			}
			done := u.done
			u.mu.Unlock()
			if done {
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := v.Write(ctx, "b.md", []byte("BETA\n"), WriteOptions{})
		wrote <- err
	}()
	<-inWrite
	rolled := make(chan error, 1)
	go func() {
		_, err := u.Rollback(t.Context(), "")
		rolled <- err
	}()
	var werr, rerr error
	guard := time.After(30 * time.Second)
	for range 2 {
		select {
		case werr = <-wrote:
		case rerr = <-rolled:
		case <-guard:
			t.Fatal("deadlock: the write and the rollback still wait for each other after 30 s")
		}
	}
	if werr == nil {
		t.Error("a write recorded after the change set was rolled back")
	}
	if rerr != nil {
		t.Fatal(rerr)
	}
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("after the rollback (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
}

// TestRollbackDuringWrites: four goroutines write through one change set, creating
// and rewriting notes, while it is rolled back. Nothing deadlocks (run it with -race),
// every write either lands before the rollback or is refused, and after the rollback
// the vault is exactly as before the change set.
func TestRollbackDuringWrites(t *testing.T) {
	v, dir := openWith(t, undoSeed)
	u, _ := NewUndo("busy")
	ctx := WithUndo(t.Context(), u)
	var started sync.WaitGroup
	var wg sync.WaitGroup
	for w := range 4 {
		started.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			for i := 0; ; i++ {
				p := vpath.Path(fmt.Sprintf("w%d/n%d.md", w, i%5))
				if i%3 == 0 {
					p = "a.md"
				}
				_, err := v.Write(ctx, p, []byte(fmt.Sprintf("writer %d, write %d\n", w, i)), WriteOptions{})
				if first {
					started.Done()
					first = false
				}
				if err != nil {
					return // the change set has ended
				}
			}
		}()
	}
	started.Wait()
	done := make(chan error, 1)
	go func() {
		_, err := u.Rollback(t.Context(), "")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("deadlock: the rollback did not end in 60 s")
	}
	wg.Wait()
	if d := cmp.Diff(undoSeed, contents(t, dir)); d != "" {
		t.Errorf("after the rollback (-want +got):\n%s", d)
	}
	assertNoUndoLog(t, dir)
}
