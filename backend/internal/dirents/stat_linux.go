package dirents

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// Lstat stats the entry name of the open folder fd without following a link at it:
// one system call, no path walk, nothing outside the folder. It retries when
// interrupted.
func Lstat(fd int, name string, st *unix.Stat_t) error {
	for {
		if err := unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW); err != unix.EINTR {
			return err
		}
	}
}

// Mode converts a stat mode into an fs.FileMode: the permission bits, and ModeDir,
// ModeSymlink or ModeIrregular (devices, sockets, pipes) for what is not a regular
// file.
func Mode(st *unix.Stat_t) fs.FileMode {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	default:
		m |= fs.ModeIrregular
	}
	return m
}
