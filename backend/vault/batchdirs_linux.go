//go:build linux

package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// batchDirs keeps the folders one batch touches open, so that its stats, reads,
// temporary files and renames are single system calls relative to an open folder
// instead of os.Root walks that open and close every folder on the way for each
// call (a batch of 100 notes in one folder opened that folder 800 times).
//
// A folder is opened relative to its parent's descriptor, one path element at a time
// from the vault's folder, never following a symbolic link (O_NOFOLLOW); every call
// made relative to one names a single path element and does not follow a link at it
// either. So what the resolver judged (resolve.go) is what is written: a folder that
// another program replaced by a link after it was opened is not followed (the write
// lands in the folder that was judged), and one replaced before fails the write
// (linkInWay). Reads fall back to os.Root, which follows links inside the vault
// (errSlowPath). Not safe for concurrent use; a write holds the vault lock while it
// uses one.
type batchDirs struct {
	v   *Vault
	fds map[vpath.Path]*os.File
}

func (v *Vault) newBatchDirs() *batchDirs { return &batchDirs{v: v, fds: map[vpath.Path]*os.File{}} }

// close closes every folder opened.
func (b *batchDirs) close() {
	for _, f := range b.fds {
		f.Close()
	}
	clear(b.fds)
}

// dir returns a descriptor of folder d, opening it once: relative to its parent's,
// without following a symbolic link (linkInWay).
func (b *batchDirs) dir(d vpath.Path) (int, error) {
	if f, ok := b.fds[d]; ok {
		return int(f.Fd()), nil
	}
	var f *os.File
	if d == "" {
		var err error
		if f, err = regular.OpenDir(b.v.root, "."); err != nil {
			return -1, err
		}
	} else {
		pfd, err := b.dir(d.Dir())
		if err != nil {
			return -1, err
		}
		var fd int
		err = ignoringEINTR(func() (err error) {
			fd, err = unix.Openat(pfd, d.Base(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			return err
		})
		if err != nil {
			return -1, b.linkOr(pfd, d, "open", err)
		}
		f = os.NewFile(uintptr(fd), string(d))
	}
	b.fds[d] = f
	return int(f.Fd()), nil
}

// folder checks that the folder d can be opened without following a link.
func (b *batchDirs) folder(d vpath.Path) error {
	_, err := b.dir(d)
	return err
}

// linkOr returns linkInWay when the entry p of the folder pfd is a symbolic link (an
// open with O_NOFOLLOW failed on it), else err as a path error.
func (b *batchDirs) linkOr(pfd int, p vpath.Path, op string, err error) error {
	if err == unix.ELOOP || err == unix.ENOTDIR || err == unix.EMLINK {
		var st unix.Stat_t
		if dirents.Lstat(pfd, p.Base(), &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return linkInWay(p)
		}
	}
	return &fs.PathError{Op: op, Path: string(p), Err: err}
}

// forget closes and forgets the descriptors of p and the folders below it, which a
// removal or a move made stale.
func (b *batchDirs) forget(p vpath.Path) {
	for d, f := range b.fds {
		if d == p || (p != "" && strings.HasPrefix(string(d), string(p)+"/")) {
			f.Close()
			delete(b.fds, d)
		}
	}
}

// readlink returns the text of the symbolic link at p.
func (b *batchDirs) readlink(p vpath.Path) (string, error) {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return "", err
	}
	for n := 256; ; n *= 2 {
		buf := make([]byte, n)
		var m int
		err := ignoringEINTR(func() (err error) {
			m, err = unix.Readlinkat(fd, p.Base(), buf)
			return err
		})
		if err != nil {
			return "", &fs.PathError{Op: "readlink", Path: string(p), Err: err}
		}
		if m < n {
			return string(buf[:m]), nil
		}
	}
}

// lstat returns the type and permission bits of the file at p without following a
// symbolic link there, as os.Root.Lstat does.
func (b *batchDirs) lstat(p vpath.Path) (fs.FileMode, error) {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return 0, err
	}
	var st unix.Stat_t
	if err := dirents.Lstat(fd, p.Base(), &st); err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: string(p), Err: err}
	}
	return dirents.Mode(&st), nil
}

// readFile returns the content of the regular file at p; errSlowPath for anything else.
func (b *batchDirs) readFile(p vpath.Path) ([]byte, error) {
	if _, err := b.dir(p.Dir()); err != nil {
		if errors.Is(err, ErrOutside) {
			return nil, errSlowPath // a read may go through a link inside the vault
		}
		return nil, err
	}
	r := dirReader{dir: b.fds[p.Dir()], noWait: &b.v.noWaitOff}
	data, _, err := r.read(p.Base(), 0, nil)
	return data, err
}

// createTemp creates the new file name in folder d with mode perm (exactly, whatever
// the umask, when exact) and writes data to it, unsynced.
func (b *batchDirs) createTemp(d vpath.Path, name string, perm fs.FileMode, exact bool, data []byte) error {
	dfd, err := b.dir(d)
	if err != nil {
		return err
	}
	p := string(d.Join(name))
	if err := fsfault.Check("create", p); err != nil {
		return err
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		return err
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: p, Err: err}
	}
	if exact {
		err = ignoringEINTR(func() error { return unix.Fchmod(fd, uint32(perm.Perm())) })
	}
	if err == nil {
		err = fsfault.Check("write", p)
	}
	err = writeAll(fd, data, err)
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, name, 0)
		return &fs.PathError{Op: "write", Path: string(d.Join(name)), Err: err}
	}
	return nil
}

// writeAll writes data to fd unless err is set, and returns the first error. write(2)
// fails with -1, which is not a count of bytes written (a full disk gave a slice
// bounds panic here once); a short count without an error is written on.
func writeAll(fd int, data []byte, err error) error {
	for len(data) > 0 && err == nil {
		var n int
		n, err = unix.Write(fd, data)
		if err == unix.EINTR {
			err = nil
		}
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		if n > 0 {
			data = data[n:]
		}
	}
	return err
}

// renameOnce moves from to to, replacing what is at to (a symbolic link there is
// replaced, not followed); rename retries it.
func (b *batchDirs) renameOnce(from, to vpath.Path) error {
	ffd, err := b.dir(from.Dir())
	if err != nil {
		return err
	}
	tfd, err := b.dir(to.Dir())
	if err != nil {
		return err
	}
	err = ignoringEINTR(func() error { return unix.Renameat(ffd, from.Base(), tfd, to.Base()) })
	if err != nil {
		return &os.LinkError{Op: "rename", Old: string(from), New: string(to), Err: err}
	}
	b.forget(from)
	return nil
}

// link makes to a new name of the file from; it fails with fs.ErrExist when to
// exists, a symbolic link included.
func (b *batchDirs) link(from, to vpath.Path) error {
	ffd, err := b.dir(from.Dir())
	if err != nil {
		return err
	}
	tfd, err := b.dir(to.Dir())
	if err != nil {
		return err
	}
	err = ignoringEINTR(func() error { return unix.Linkat(ffd, from.Base(), tfd, to.Base(), 0) })
	if err != nil {
		return &os.LinkError{Op: "link", Old: string(from), New: string(to), Err: err}
	}
	return nil
}

// remove removes the file, symbolic link or empty folder at p.
func (b *batchDirs) remove(p vpath.Path) error {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return err
	}
	err = ignoringEINTR(func() error { return unix.Unlinkat(fd, p.Base(), 0) })
	if err == unix.EISDIR || err == unix.EPERM {
		if derr := ignoringEINTR(func() error { return unix.Unlinkat(fd, p.Base(), unix.AT_REMOVEDIR) }); derr != unix.ENOTDIR {
			err = derr
		}
	}
	if err != nil {
		return &fs.PathError{Op: "remove", Path: string(p), Err: err}
	}
	b.forget(p)
	return nil
}

// mkdir creates the folder p with mode perm (less the umask).
func (b *batchDirs) mkdir(p vpath.Path, perm fs.FileMode) error {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return err
	}
	err = ignoringEINTR(func() error { return unix.Mkdirat(fd, p.Base(), uint32(perm.Perm())) })
	if err != nil {
		return &fs.PathError{Op: "mkdir", Path: string(p), Err: err}
	}
	return nil
}

// openTemp creates the new file p, with mode perm (less the umask), for writing.
func (b *batchDirs) openTemp(p vpath.Path, perm fs.FileMode) (*os.File, error) {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return nil, err
	}
	var nfd int
	err = ignoringEINTR(func() (err error) {
		nfd, err = unix.Openat(fd, p.Base(), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: string(p), Err: err}
	}
	return os.NewFile(uintptr(nfd), string(p)), nil
}

// openFile opens the regular file p with flag and perm as regular.OpenFile does,
// without following a symbolic link at p (linkInWay) or on its way.
func (b *batchDirs) openFile(p vpath.Path, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	fd, err := b.dir(p.Dir())
	if err != nil {
		return nil, nil, err
	}
	return regular.OpenFunc(func(nonBlock int) (*os.File, error) {
		var nfd int
		err := ignoringEINTR(func() (err error) {
			nfd, err = unix.Openat(fd, p.Base(), flag|nonBlock|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
			return err
		})
		if err != nil {
			return nil, b.linkOr(fd, p, "open", err)
		}
		return os.NewFile(uintptr(nfd), string(p)), nil
	})
}

// hardLinked reports whether the file of st has other names, which an append to it
// would change too.
func hardLinked(st fs.FileInfo) bool {
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && s.Nlink > 1
}

// syncDir makes the renames and removals in folder d durable.
func (b *batchDirs) syncDir(d vpath.Path) error {
	if err := fsfault.Check("syncdir", string(d)); err != nil {
		return fmt.Errorf("sync folder %s: %w", d, err)
	}
	fd, err := b.dir(d)
	if err != nil {
		return fmt.Errorf("sync folder %s: %w", d, mapErr(err))
	}
	if err := ignoringEINTR(func() error { return unix.Fsync(fd) }); err != nil {
		return fmt.Errorf("sync folder %s: %w", d, err)
	}
	return nil
}

func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
