//go:build linux

package vault

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/vpath"
)

// statAt stats the entry name of the open folder f with fstatat relative to it,
// without following a link: one system call, no path walk, nothing outside the
// folder. ok is false when the entry is gone or unreadable.
func statAt(_ *os.Root, f *os.File, _ vpath.Path, name string) (mode fs.FileMode, size int64, mtime time.Time, ok bool) {
	var st unix.Stat_t
	if dirents.Lstat(int(f.Fd()), name, &st) != nil {
		return 0, 0, time.Time{}, false
	}
	return dirents.Mode(&st).Type(), st.Size, time.Unix(st.Mtim.Sec, st.Mtim.Nsec), true
}
