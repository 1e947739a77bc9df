//go:build linux

package search

import "golang.org/x/sys/unix"

// prefault maps every page of b, a part of a mapped file about to be read whole, in
// one system call instead of one page fault per page. Failing (a kernel before 5.14,
// memory not mapped from a file) changes nothing but the speed.
func prefault(b []byte) {
	if len(b) == 0 {
		return
	}
	_ = unix.Madvise(b, unix.MADV_POPULATE_READ)
}
