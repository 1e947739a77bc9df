package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestIndexHeap: reading libraries switches the collector off under a memory limit
// that grows with the notes of every library read; GOGC in the environment wins.
func TestIndexHeap(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	var h indexHeap
	h.beforeRead(100)
	h.beforeRead(50)
	if got, want := debug.SetMemoryLimit(-1), int64(limitBase+150*limitPerNote); got != want {
		t.Errorf("memory limit after two libraries of 100 and 50 notes = %d, want %d", got, want)
	}
	if p := debug.SetGCPercent(100); p != -1 {
		t.Errorf("GC percent while indexing = %d, want -1 (off)", p)
	}

	t.Setenv("GOGC", "200")
	debug.SetMemoryLimit(math.MaxInt64)
	h.beforeRead(10)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GC percent with GOGC set = %d, want it left at 100", p)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit with GOGC set = %d, want it left alone", got)
	}
}
