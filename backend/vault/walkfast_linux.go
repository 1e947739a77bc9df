//go:build linux

package vault

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/vpath"
)

// statAt stats the entry name of the open folder f with fstatat relative to it,
// without following a link: one system call, no path walk, nothing outside the
// folder. ok is false when the entry is gone or unreadable.
func statAt(_ *os.Root, f *os.File, _ vpath.Path, name string) (mode fs.FileMode, size int64, mtime time.Time, ok bool) {
	var st unix.Stat_t
	err := unix.Fstatat(int(f.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	for err == unix.EINTR {
		err = unix.Fstatat(int(f.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return 0, 0, time.Time{}, false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode = fs.ModeDir
	case unix.S_IFREG:
		mode = 0
	case unix.S_IFLNK:
		mode = fs.ModeSymlink
	default:
		mode = fs.ModeIrregular
	}
	return mode, st.Size, time.Unix(st.Mtim.Sec, st.Mtim.Nsec), true
}
