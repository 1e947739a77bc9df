//go:build linux

package osmem

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// PrepareHugeHeap makes the next size bytes the Go heap grows into memory backed by
// transparent huge pages. On a virtual machine a page fault can cost tens of
// microseconds (the host backs the page too), and building a large structure touches
// its whole heap once: with 4 KB pages that is a fault every 4 KB, with huge pages
// one every 2 MB. Go does not ask for huge pages itself, and a system set to
// "madvise" (the common default) gives none unasked.
//
// It allocates one block of that size, so that the runtime maps address space for it
// above everything allocated so far, advises the kernel to back that range with huge
// pages (MADV_HUGEPAGE), and frees the block with a full collection (call it before a
// large build, not often). The runtime hands out the lowest free pages first, so the
// allocations that follow land in the advised range. Nothing is touched, so nothing
// is paid for memory never used. It reports whether the advice was taken; when it was
// not (huge pages switched off, an old kernel) the heap simply keeps small pages.
// At most MaxHugeHeap bytes are prepared: the block is address space the kernel may
// refuse to promise on a small machine (a failed allocation ends the process).
func PrepareHugeHeap(size int) bool {
	block := make([]byte, min(size, MaxHugeHeap))
	err := unix.Madvise(block, unix.MADV_HUGEPAGE)
	block = nil
	runtime.GC() // free the block now, before the heap grows past it
	return err == nil
}
