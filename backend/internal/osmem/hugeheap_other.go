//go:build !linux

package osmem

// PrepareHugeHeap does nothing where madvise(MADV_HUGEPAGE) does not exist.
func PrepareHugeHeap(size int) bool { return false }
