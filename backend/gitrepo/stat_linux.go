package gitrepo

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/memotree/memotree/backend/internal/dirents"
)

// fillStat copies the stat data git compares to tell an unchanged file quickly.
func fillStat(e *index.Entry, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Unix())
		e.Dev, e.Inode = uint32(st.Dev), uint32(st.Ino)
		e.UID, e.GID = st.Uid, st.Gid
	}
}

// statFile returns the lstat data of one file.
func statFile(path string) (workFile, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return workFile{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	f, _ := fromStat(&st) // what is not a file, folder or link keeps ModeIrregular
	return f, nil
}

// fromStat keeps what git compares of stat data; ok is false for what is neither a
// file, a folder nor a link.
func fromStat(st *unix.Stat_t) (workFile, bool) {
	m := dirents.Mode(st)
	f := workFile{size: st.Size, ino: st.Ino, mode: m,
		mtime: unixTime{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, ctime: unixTime{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}}
	return f, m&fs.ModeIrregular == 0
}
