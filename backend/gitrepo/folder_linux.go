package gitrepo

import (
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/internal/dirents"
)

// folderSys is the open folder.
type folderSys struct {
	file *os.File
	fd   uintptr
}

// open opens the folder and lists its entries and their types with getdents
// (dirents.List): no stat for a listing.
func (f *folder) open() error {
	fd, err := unix.Open(f.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: f.dir, Err: err}
	}
	f.sys.file, f.sys.fd = os.NewFile(uintptr(fd), f.dir), uintptr(fd)
	return dirents.List(f.sys.file, f.add)
}

func (f *folder) close() {
	if f.sys.file != nil {
		f.sys.file.Close()
		f.sys.file = nil
	}
}

// stat returns the lstat data of the i-th entry, stat'ed relative to the folder's
// descriptor (no path walk) with the zero-ended name in place (no copy). ok is false
// when the entry is gone or is neither a file, a folder nor a link. After DirectStat
// the call is a raw one.
func (f *folder) stat(i int) (workFile, bool) {
	e := f.ents[i]
	var st unix.Stat_t
	direct := directStat.Load()
	for {
		// Each call converts its pointers in the call itself, as unsafe.Pointer's
		// rules for system calls require.
		var errno unix.Errno
		if direct {
			_, _, errno = unix.RawSyscall6(unix.SYS_NEWFSTATAT, f.sys.fd, uintptr(unsafe.Pointer(&f.names[e.off])),
				uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		} else {
			_, _, errno = unix.Syscall6(unix.SYS_NEWFSTATAT, f.sys.fd, uintptr(unsafe.Pointer(&f.names[e.off])),
				uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		}
		if errno == 0 {
			break
		}
		if errno != unix.EINTR {
			return workFile{}, false
		}
	}
	return fromStat(&st)
}

// typeOf returns the i-th entry's type, stat'ing it when the listing did not say.
func (f *folder) typeOf(i int) fs.FileMode {
	if t := f.ents[i].typ; t != dirents.TypeUnknown {
		return t
	}
	w, ok := f.stat(i)
	if !ok {
		return fs.ModeIrregular
	}
	return w.mode.Type()
}
