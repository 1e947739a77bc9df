//go:build unix

package vault

import (
	"os"
	"syscall"
)

// mapTail maps the bytes of f from start to size read-only. A long journey's tail is
// then read from the page cache where it lies, with no copy and no fresh memory
// to fault in; release unmaps it. ok is false when the platform refuses, and the
// caller reads instead.
func mapTail(f *os.File, start, size int64) (b []byte, release func(), ok bool) {
	page := int64(os.Getpagesize())
	at := start &^ (page - 1)
	if size-at <= 0 || size-at > 1<<30 {
		return nil, nil, false
	}
	m, err := syscall.Mmap(int(f.Fd()), at, int(size-at), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, false
	}
	return m[start-at:], func() { _ = syscall.Munmap(m) }, true
}
