//go:build !linux

package vault

import (
	"io/fs"
	"os"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// statAt stats the entry name of the folder at vault path d through the vault's
// root, without following a link. ok is false when the entry is gone or unreadable.
func statAt(root *os.Root, _ *os.File, d vpath.Path, name string) (mode fs.FileMode, size int64, mtime time.Time, ok bool) {
	info, err := root.Lstat(osName(childPath(d, name)))
	if err != nil {
		return 0, 0, time.Time{}, false
	}
	return info.Mode().Type(), info.Size(), info.ModTime(), true
}
