package gitrepo

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat copies the stat data git compares to tell an unchanged file quickly.
func fillStat(e *index.Entry, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Unix())
		e.Dev, e.Inode = uint32(st.Dev), uint32(st.Ino)
		e.UID, e.GID = st.Uid, st.Gid
	}
}

// readDir lists a folder with the lstat data of each entry, stating each name
// relative to the folder's descriptor (no path walk per file).
func readDir(dir string) ([]dirEnt, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEnt, 0, len(names))
	var st unix.Stat_t
	for _, n := range names {
		if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue // removed since listed
		}
		e := dirEnt{name: n, workFile: workFile{size: st.Size, ino: st.Ino, mtime: unixTime{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)}, ctime: unixTime{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)}}}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			e.mode = fs.ModeDir
		case unix.S_IFLNK:
			e.mode = fs.ModeSymlink
		case unix.S_IFREG:
			e.mode = fs.FileMode(st.Mode & 0o777)
		default:
			continue // sockets, fifos, devices: git ignores them too
		}
		out = append(out, e)
	}
	return out, nil
}
