//go:build linux

package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// dirReader reads files of one folder of the vault by name relative to an open
// handle on that folder, with plain system calls: no *os.File per note, whose
// registration with the runtime's poller costs more than reading a small file.
type dirReader struct{ dir *os.File }

// openDirReader opens the folder named name (slash-separated, inside the vault)
// through the vault's root, so the folder itself passes os.Root's escape checks.
func (v *Vault) openDirReader(name string) (*dirReader, error) {
	f, err := v.root.Open(name)
	if err != nil {
		return nil, err
	}
	return &dirReader{dir: f}, nil
}

func (d *dirReader) close() { d.dir.Close() }

// read reads the file base (one path element, no slash) into buf. O_NOFOLLOW refuses
// a symbolic link (ELOOP), which the caller then reads through os.Root instead, so no
// link can lead out of the vault from here.
func (d *dirReader) read(base string, maxSize int64, buf []byte) ([]byte, error) {
	fd, err := unix.Openat(int(d.dir.Fd()), base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) {
			return buf, fs.ErrNotExist
		}
		return buf, errSlowPath
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return buf, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return buf, errSlowPath
	}
	if maxSize > 0 && st.Size > maxSize {
		return buf, fmt.Errorf("%w: %d bytes", ErrTooLarge, st.Size)
	}
	size := int(st.Size)
	n := size + 1 // one more byte to see a file that grew since the stat
	if cap(buf) < n {
		buf = make([]byte, 0, n+n/4)
	}
	buf = buf[:0]
	for {
		if len(buf) == size && size > 0 {
			// As long as fstat said: stop without one more read for the end of the
			// file. A write racing this read is seen by the watcher and read again.
			return buf, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if m == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+m]
	}
}
