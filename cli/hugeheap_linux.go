//go:build linux

package cli

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// prepareHugeHeap makes the next size bytes the Go heap grows into memory backed by
// transparent huge pages (see indexheap.go): it allocates one block of that size, so
// that the runtime maps address space for it above everything allocated so far,
// advises the kernel to back that range with huge pages (MADV_HUGEPAGE), and frees
// the block. The runtime hands out the lowest free pages first, so the allocations
// that follow land in the advised range. Nothing is touched, so nothing is paid for
// memory never used. It reports whether the advice was taken; when it was not (huge
// pages switched off, an old kernel) the heap simply keeps small pages.
func prepareHugeHeap(size int) bool {
	block := make([]byte, size)
	err := unix.Madvise(block, unix.MADV_HUGEPAGE)
	block = nil
	runtime.GC() // free the block now, before the heap grows past it
	return err == nil
}
