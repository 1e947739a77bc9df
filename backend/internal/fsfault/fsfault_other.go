//go:build !unix

package fsfault

import (
	"errors"
	"syscall"
)

// Windows reports a full disk as ERROR_DISK_FULL (112) or ERROR_HANDLE_DISK_FULL
// (39); a quota as ERROR_DISK_QUOTA_EXCEEDED (1295).
func classify(err error) Kind {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return None
	}
	switch errno {
	case 112, 39, syscall.ENOSPC:
		return NoSpace
	case 1295:
		return Quota
	case syscall.EIO:
		return IO
	}
	return None
}

func freeBytes(string) (uint64, bool) { return 0, false }
