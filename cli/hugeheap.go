package cli

// The heap of a full index, and why it is prepared. On a virtual machine a page fault
// can cost tens of microseconds (the host backs the page too), and a full index
// touches its whole heap once: the parsed notes and the graph are most of what it
// allocates, and they stay live until the process exits. With 4 KB pages a 10,000-note
// vault takes about 20,000 faults, a good part of the whole run; with transparent
// huge pages it takes a few thousand. Go does not ask for huge pages itself (and a
// system set to "madvise", the common default, gives none unasked), so the index
// command asks for them, once it knows how many notes a library holds, for the span
// of address space its heap is about to grow into.

// Sizes of the prepared span: hugeHeapPerNote bytes a note, about what parsing and
// resolving one note leaves on the heap, for a library of at least hugeHeapMinNotes
// notes. A smaller library's heap stays small, where a partly used 2 MB page would
// only add to its peak memory, and preparing would cost more than it saves.
const (
	hugeHeapPerNote  = 10 << 10
	hugeHeapMinNotes = 2000
)

// prepareHeap readies the heap for indexing a library of the given number of notes.
func prepareHeap(notes int) {
	if notes >= hugeHeapMinNotes {
		prepareHugeHeap(notes * hugeHeapPerNote)
	}
}
