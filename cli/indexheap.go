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
// On a virtual machine a page fault can cost tens of microseconds (the host backs
// the page too), and the index touches its whole heap once: with 4 KB pages a
// 10,000-note vault takes about 20,000 faults, a good part of the whole run; with
// transparent huge pages a few thousand. Go does not ask for huge pages itself (and
// a system set to "madvise", the common default, gives none unasked), so the index
// command asks for them, once it knows how many notes a library holds, for the span
// of address space its heap is about to grow into.

// Sizes: heapPerNote bytes a note, about what parsing and resolving one note leaves
// on the heap, are prepared for a library of at least hugeHeapMinNotes notes (a
// smaller library's heap stays small, where a partly used 2 MB page only adds to its
// peak memory). The memory limit allows limitPerNote bytes a note over limitBase.
const (
	heapPerNote      = 10 << 10
	hugeHeapMinNotes = 2000
	limitPerNote     = 24 << 10
	limitBase        = 64 << 20
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
	if notes >= hugeHeapMinNotes {
		prepareHugeHeap(notes * heapPerNote)
	}
}
