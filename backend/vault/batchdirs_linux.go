//go:build linux

package vault

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

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
// Folders are opened through os.Root, and every call made relative to one names a
// single path element and does not follow a symbolic link at it, so nothing here can
// reach outside the vault; a symbolic link is left to the os.Root path (errSlowPath).
// Not safe for concurrent use; Apply holds the vault lock while it uses one.
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

// dir returns a descriptor of folder d, opening it once.
func (b *batchDirs) dir(d vpath.Path) (int, error) {
	if f, ok := b.fds[d]; ok {
		return int(f.Fd()), nil
	}
	f, err := regular.OpenDir(b.v.root, osName(d))
	if err != nil {
		return -1, err
	}
	b.fds[d] = f
	return int(f.Fd()), nil
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

// rename moves from to to; both must be in the same folder, else errSlowPath.
func (b *batchDirs) rename(from, to vpath.Path) error {
	d := from.Dir()
	if to.Dir() != d {
		return errSlowPath
	}
	fd, err := b.dir(d)
	if err != nil {
		return err
	}
	err = ignoringEINTR(func() error { return unix.Renameat(fd, from.Base(), fd, to.Base()) })
	if err != nil {
		return &os.LinkError{Op: "rename", Old: string(from), New: string(to), Err: err}
	}
	return nil
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
