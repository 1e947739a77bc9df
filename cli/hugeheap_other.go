//go:build !linux

package cli

// prepareHugeHeap does nothing where madvise(MADV_HUGEPAGE) does not exist.
func prepareHugeHeap(size int) bool { return false }
