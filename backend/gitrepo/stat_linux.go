package gitrepo

import (
	"os"
	"syscall"
	"time"

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
