//go:build linux

package dirents

import (
	"io/fs"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// direntBufs holds the buffers List reads directory entries into.
var direntBufs = sync.Pool{New: func() any { return new([16 << 10]byte) }}

// List calls fn with the name and type of every entry of the open folder f but
// "." and "..", read with getdents64. The kernel reports each entry's type, so no
// entry costs a stat, as it does in os.File.ReadDir for a folder opened through
// os.Root. An entry whose type the file system does not report comes with
// TypeUnknown. name is valid only during the call.
func List(f *os.File, fn func(name []byte, typ fs.FileMode)) error {
	buf := direntBufs.Get().(*[16 << 10]byte)
	defer direntBufs.Put(buf)
	fd := int(f.Fd())
	for {
		n, err := unix.Getdents(fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "getdents", Path: f.Name(), Err: err}
		}
		if n <= 0 {
			return nil
		}
		parseDirents(buf[:n], fn)
	}
}

// The layout of struct linux_dirent64: inode (8 bytes), offset (8), record length
// (2), type (1), then the name, ending with a zero byte.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// parseDirents calls fn for each entry in b, the output of one getdents64 call.
func parseDirents(b []byte, fn func(name []byte, typ fs.FileMode)) {
	for len(b) >= direntName {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[direntReclen])))
		if reclen < direntName || reclen > len(b) {
			return // a malformed record: stop rather than read past it
		}
		rec := b[:reclen]
		b = b[reclen:]
		if *(*uint64)(unsafe.Pointer(&rec[0])) == 0 {
			continue // a deleted entry
		}
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		fn(name, direntMode(rec[direntType]))
	}
}

// direntMode converts a directory entry's type.
func direntMode(t byte) fs.FileMode {
	switch t {
	case unix.DT_REG:
		return 0
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_UNKNOWN:
		return TypeUnknown
	}
	return fs.ModeIrregular
}
