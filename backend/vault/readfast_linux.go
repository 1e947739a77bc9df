//go:build linux

package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/internal/regular"
)

// dirReader reads files of one folder of the vault by name relative to an open
// handle on that folder, with plain system calls: no *os.File per note, whose
// registration with the runtime's poller costs more than reading a small file.
//
// A cold page cache makes every read wait for the disk, one file at a time per
// reader. So the first read of each file asks for cached data only
// (preadv2 with RWF_NOWAIT); when that finds the file uncached, the reader opens
// the folder's next files at once and asks the kernel to start reading them
// (posix_fadvise WILLNEED), so that many reads are in flight while it parses. With a
// warm cache this costs nothing more than a plain read.
type dirReader struct {
	dir    *os.File
	ahead  []aheadFile  // files opened ahead, in the order they will be read
	noWait *atomic.Bool // the vault's noWaitOff
}

// aheadFile is a file opened ahead of its read.
type aheadFile struct {
	base string
	fd   int
}

// openDirReader opens the folder named name (slash-separated, inside the vault)
// through the vault's root, so the folder itself passes os.Root's escape checks.
func (v *Vault) openDirReader(name string) (*dirReader, error) {
	f, err := regular.OpenDir(v.root, name)
	if err != nil {
		return nil, err
	}
	return &dirReader{dir: f, noWait: &v.noWaitOff}, nil
}

func (d *dirReader) close() {
	for _, a := range d.ahead {
		unix.Close(a.fd)
	}
	d.ahead = nil
	d.dir.Close()
}

// open opens the file base (one path element, no slash) of the folder. O_NOFOLLOW
// refuses a symbolic link (ELOOP), which the caller then reads through os.Root
// instead, so no link can lead out of the vault from here; O_NONBLOCK keeps a FIFO
// from blocking the open.
func (d *dirReader) open(base string) (int, error) {
	for {
		fd, err := unix.Openat(int(d.dir.Fd()), base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		switch {
		case err == nil:
			return fd, nil
		case err == unix.EINTR:
			continue
		case errors.Is(err, unix.ENOENT):
			return -1, fs.ErrNotExist
		}
		return -1, errSlowPath
	}
}

// readAhead opens the files named bases, which are to be read next and in this order,
// and asks the kernel to start reading them. A file that cannot be opened here is
// left to read, which reports why.
func (d *dirReader) readAhead(bases []string) {
	for _, base := range bases {
		fd, err := d.open(base)
		if err != nil {
			continue
		}
		_ = unix.Fadvise(fd, 0, 0, unix.FADV_WILLNEED) // a hint: failure only costs speed
		d.ahead = append(d.ahead, aheadFile{base, fd})
	}
	readAheads.Add(1)
}

// readAheads counts the folders whose files were opened ahead (tests read it).
var readAheads atomic.Int64

// takeAhead returns the file base if it was opened ahead, else -1. Files are read
// in the order they were opened, so those opened before base were skipped (their
// paths were refused) and are closed.
func (d *dirReader) takeAhead(base string) int {
	for i, a := range d.ahead {
		if a.base == base {
			for _, skipped := range d.ahead[:i] {
				unix.Close(skipped.fd)
			}
			d.ahead = d.ahead[i+1:]
			return a.fd
		}
	}
	return -1
}

// read reads the file base (one path element, no slash) into buf. cold reports that
// the file's data was not in the page cache.
func (d *dirReader) read(base string, maxSize int64, buf []byte) (data []byte, cold bool, err error) {
	fd := d.takeAhead(base)
	if fd < 0 {
		if fd, err = d.open(base); err != nil {
			return buf, false, err
		}
	}
	defer unix.Close(fd)
	st, err := regularFd(fd)
	if err != nil {
		return buf, false, err
	}
	if maxSize > 0 && st.Size > maxSize {
		return buf, false, fmt.Errorf("%w: %d bytes", ErrTooLarge, st.Size)
	}
	size := int(st.Size)
	n := size + 1 // one more byte to see a file that grew since the stat
	if cap(buf) < n {
		buf = make([]byte, 0, n+n/4)
	}
	buf = buf[:0]
	if size > 0 && (d.noWait == nil || !d.noWait.Load()) {
		m, err := readNoWait(fd, buf[:size])
		switch {
		case err == nil:
			buf = buf[:m]
		case err == unix.EAGAIN:
			cold = true
		default:
			if d.noWait != nil {
				d.noWait.Store(true)
			}
		}
	}
	blocking := false // the open set O_NONBLOCK; cleared on the first EAGAIN
	for {
		if len(buf) == size && size > 0 {
			// As long as fstat said: stop without one more read for the end of the
			// file. A write racing this read is seen by the watcher and read again.
			return buf, cold, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := readFd(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN && !blocking {
			if err = setBlocking(fd); err != nil {
				return buf, cold, err
			}
			blocking = true
			continue
		}
		if err != nil {
			return buf, cold, err
		}
		if m == 0 {
			return buf, cold, nil
		}
		buf = buf[:len(buf)+m]
	}
}

// regularFd returns the status of fd, opened non-blocking, refusing anything but a
// regular file. The descriptor stays non-blocking, which a regular file's reads
// ignore on local file systems; a file system that answers such a read with EAGAIN
// (some FUSE file systems do) gets it again in blocking mode (setBlocking), so most
// files cost no fcntl call.
func regularFd(fd int) (unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return st, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return st, notRegular(dirents.Mode(&st))
	}
	return st, nil
}

// readFd is read(2); a test stands in a file system that answers a non-blocking
// read with EAGAIN.
var readFd = unix.Read

// setBlocking puts fd back in blocking mode. F_SETFL changes only the status flags,
// of which the open set O_NONBLOCK alone.
func setBlocking(fd int) error {
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, 0)
	return err
}

// readNoWait reads into b from the file fd, at its offset, only what the page cache
// holds, failing with EAGAIN when that is nothing.
func readNoWait(fd int, b []byte) (int, error) {
	iov := unix.Iovec{Base: &b[0]}
	iov.SetLen(len(b))
	// Offset -1: read at the file's offset and move it, like read(2), so that the
	// plain reads continuing a partly cached file start where this one stopped.
	off := -1
	n, _, errno := unix.Syscall6(unix.SYS_PREADV2, uintptr(fd), uintptr(unsafe.Pointer(&iov)), 1, uintptr(off), uintptr(off), unix.RWF_NOWAIT)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
