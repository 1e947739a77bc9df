//go:build unix

package regular

import (
	"errors"
	"syscall"
)

// NonBlock opens a named pipe without waiting for its writer.
const NonBlock = syscall.O_NONBLOCK

// DirFlags open a folder only, without waiting: a named pipe in its place is refused.
const DirFlags = syscall.O_DIRECTORY | syscall.O_NONBLOCK

// leased reports whether err is a non-blocking open's answer for a file under a
// lease another program holds (EAGAIN): the kernel has asked the holder to let go.
func leased(err error) bool { return errors.Is(err, syscall.EAGAIN) }
