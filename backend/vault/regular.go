package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular means a path names something that is not a regular file: a named
// pipe (FIFO), a device, a socket. MemoTree neither reads nor writes it: reading a
// named pipe blocks until someone writes to it, a device may never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrReadOnly means the note's permissions say no one may write it (its owner's write
// bit is clear, as `chmod 444` leaves it): MemoTree does not change, move or delete it.
var ErrReadOnly = errors.New("read-only note (its permissions allow no writing)")

// notRegular describes the file mode m, which is not a regular file's, as an error.
func notRegular(m fs.FileMode) error {
	kind := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		kind = "character device"
	case m&fs.ModeDevice != 0:
		kind = "block device"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m.IsDir():
		kind = "folder"
	}
	return fmt.Errorf("%w: it is a %s; remove it or rename it to a name that does not end in .md", ErrNotRegular, kind)
}

// readOnly reports whether the permission bits perm forbid writing: the owner's
// write bit is clear.
func readOnly(perm fs.FileMode) bool { return perm&0o200 == 0 }

// openRegular opens the file name of r for reading. The open does not block (a named
// pipe would block it until a writer comes), and anything but a regular file is
// refused with ErrNotRegular before a byte is read.
func openRegular(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(st.Mode())
	}
	return f, st, nil
}

// readRegular returns the content of the regular file name of r (see openRegular).
func readRegular(r *os.Root, name string) ([]byte, error) {
	f, st, err := openRegular(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 0, st.Size()+1) // one more byte to see a file that grew since the stat
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
