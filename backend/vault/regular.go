package vault

import (
	"errors"
	"io/fs"
	"os"

	"github.com/memotree/memotree/backend/internal/regular"
)

// ErrNotRegular means a path names something that is not a regular file: a named
// pipe (FIFO), a device, a socket. MemoTree neither reads nor writes it: reading a
// named pipe blocks until someone writes to it, a device may never end.
var ErrNotRegular = regular.ErrNotRegular

// ErrReadOnly means the note's permissions say no one may write it (its owner's write
// bit is clear, as `chmod 444` leaves it): MemoTree does not change, move or delete it.
var ErrReadOnly = errors.New("read-only note (its permissions allow no writing)")

// notRegular describes the file mode m, which is not a regular file's, as an error.
func notRegular(m fs.FileMode) error { return regular.Describe(m) }

// readOnly reports whether the permission bits perm forbid writing: the owner's
// write bit is clear.
func readOnly(perm fs.FileMode) bool { return perm&0o200 == 0 }

// openRegular opens the file name of r for reading, refusing anything but a regular
// file without blocking (see internal/regular).
func openRegular(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	return regular.Open(r, name)
}

// readRegular returns the content of the regular file name of r.
func readRegular(r *os.Root, name string) ([]byte, error) { return regular.ReadFile(r, name) }
