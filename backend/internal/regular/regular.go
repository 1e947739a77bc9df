// Package regular reads files that must be regular files, without ever blocking on
// one that is not: a named pipe (FIFO) blocks an open until a writer comes and a read
// until it writes, and a device such as /dev/zero never ends. Every open here is
// non-blocking and followed by fstat; anything but a regular file is refused with
// ErrNotRegular before a byte is read, and a regular file is handed out in blocking
// mode again (Go does not poll regular files, so a file system that answers a
// non-blocking read with EAGAIN, as some FUSE file systems do, would fail it). A regular file under another program's lease
// (a file server's oplock or delegation) refuses a non-blocking open while the kernel
// asks the holder to let go: the open is tried again for a few seconds, as a blocking
// one would wait. The vault's reads, git's reads of the working tree and of its own
// files, and the search index's file all go through it.
//
// Concurrency: the functions are safe for concurrent use.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// ErrNotRegular means a path names something that is not a regular file (a named
// pipe, a device, a socket, a folder).
var ErrNotRegular = errors.New("not a regular file")

// Describe returns ErrNotRegular, saying what m is and what to do.
func Describe(m fs.FileMode) error {
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
	return fmt.Errorf("%w: it is a %s, not a file MemoTree reads (it could block or never end); remove it, or move it out of the vault", ErrNotRegular, kind)
}

// Open opens the file name of r for reading (see the package documentation).
func Open(r *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := openLeased(func() (*os.File, error) { return r.OpenFile(name, os.O_RDONLY|NonBlock, 0) })
	if err != nil {
		return nil, nil, err
	}
	return check(f)
}

// OpenFile opens the regular file name of r with flag (os.O_RDWR, os.O_APPEND,
// os.O_CREATE…) and perm, as os.Root.OpenFile does, the way Open does: without
// blocking on anything that is not a regular file, which is refused.
func OpenFile(r *os.Root, name string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := openLeased(func() (*os.File, error) { return r.OpenFile(name, flag|NonBlock, perm) })
	if err != nil {
		return nil, nil, err
	}
	return check(f)
}

// OpenFunc opens a regular file the way OpenFile does, with open, which is given the
// flag that makes the open non-blocking and opens the file however its caller must
// (relative to an open folder, without following a symbolic link).
func OpenFunc(open func(nonBlock int) (*os.File, error)) (*os.File, fs.FileInfo, error) {
	f, err := openLeased(func() (*os.File, error) { return open(NonBlock) })
	if err != nil {
		return nil, nil, err
	}
	return check(f)
}

// OpenPath is Open for a path of the file system.
func OpenPath(path string) (*os.File, fs.FileInfo, error) {
	f, err := openLeased(func() (*os.File, error) { return os.OpenFile(path, os.O_RDONLY|NonBlock, 0) })
	if err != nil {
		return nil, nil, err
	}
	return check(f)
}

// leaseWait bounds how long an open waits for another program to let go of its lease
// on a file (the kernel takes it away after /proc/sys/fs/lease-break-time, 45 s by
// default; a file server lets go in moments).
const leaseWait = 10 * time.Second

// openLeased calls open, and again with a growing pause while it fails because
// another program holds a lease on the file (a Samba oplock, an NFS server's
// delegation): a non-blocking open is refused while the kernel asks the holder to let
// go, where a blocking one would wait. A named pipe never answers so, so this never
// waits on one.
func openLeased(open func() (*os.File, error)) (*os.File, error) {
	pause := time.Millisecond
	deadline := time.Now().Add(leaseWait)
	for {
		f, err := open()
		if err == nil || !leased(err) {
			return f, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w (another program, such as a file server or a sync tool, holds the file and did not let go within %v: try again once it is done with it)", err, leaseWait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func check(f *os.File) (*os.File, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: f.Name(), Err: Describe(st.Mode())}
	}
	if err := blocking(f); err != nil {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: f.Name(), Err: err}
	}
	return f, st, nil
}

// ReadFile returns the content of the regular file name of r.
func ReadFile(r *os.Root, name string) ([]byte, error) {
	f, st, err := Open(r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, st.Size())
}

// ReadPath returns the content of the regular file at path.
func ReadPath(path string) ([]byte, error) {
	f, st, err := OpenPath(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, st.Size())
}

// readAll reads f to its end, starting with room for size bytes and one more (to
// see a file that grew since the stat).
func readAll(f *os.File, size int64) ([]byte, error) {
	b := make([]byte, 0, size+1)
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

// OpenDir opens the folder name of r. Anything but a folder (a named pipe in its
// place) is refused at once (ENOTDIR) rather than waited on.
func OpenDir(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, os.O_RDONLY|DirFlags, 0)
}
