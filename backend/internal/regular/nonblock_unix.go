//go:build unix

package regular

import (
	"errors"
	"os"
	"syscall"
)

// NonBlock opens a named pipe without waiting for its writer.
const NonBlock = syscall.O_NONBLOCK

// DirFlags open a folder only, without waiting: a named pipe in its place is refused.
const DirFlags = syscall.O_DIRECTORY | syscall.O_NONBLOCK

// leased reports whether err is a non-blocking open's answer for a file under a
// lease another program holds (EAGAIN): the kernel has asked the holder to let go.
func leased(err error) bool { return errors.Is(err, syscall.EAGAIN) }

// blocking puts f's descriptor, opened non-blocking, back in blocking mode: Go does
// not poll a regular file, so a read or write that a file system answers with EAGAIN
// (some FUSE file systems do, on a non-blocking descriptor) would fail at once.
func blocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return ferr
}
