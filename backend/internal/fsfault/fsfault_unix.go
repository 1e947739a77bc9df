//go:build unix

package fsfault

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

func classify(err error) Kind {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return NoSpace
	case errors.Is(err, syscall.EDQUOT):
		return Quota
	case errors.Is(err, syscall.EIO):
		return IO
	}
	return None
}

// freeBytes returns the space free for an unprivileged user on dir's file system.
func freeBytes(dir string) (uint64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
