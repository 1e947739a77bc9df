package cli

import (
	"os"
	"runtime/debug"
)

// The heap of a full index, and why the index command prepares it.
//
// A full index keeps most of what it allocates: the parsed notes and the graph stay
// live until the process exits. Collecting while the heap only grows finds little to
// free, so the collector is switched off for the scan, with a memory limit that
// brings it back should a vault need far more memory than notes usually do.
//
// The heap the scan grows into is prepared for huge pages by the library itself
// (library.go), for every command and the app.

// The memory limit allows limitPerNote bytes a note over limitBase.
const (
	limitPerNote = 24 << 10
	limitBase    = 64 << 20
)

// indexHeap prepares the heap for the libraries an index command reads, one after
// the other. The zero value is ready; it is not safe for concurrent use.
type indexHeap struct {
	notes int // notes of the libraries prepared so far
}

// beforeRead prepares for reading a library of the given number of notes (the
// BeforeRead of workspace.Options). A GOGC or GOMEMLIMIT in the environment wins over
// the collector settings.
func (h *indexHeap) beforeRead(notes int) {
	h.notes += notes
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limitBase + int64(h.notes)*limitPerNote)
		debug.SetGCPercent(-1)
	}
}
