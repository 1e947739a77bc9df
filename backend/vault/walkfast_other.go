//go:build !linux

package vault

import (
	"io/fs"
	"os"
)

// readDir calls visit with each entry of the folder f, listed with os.ReadDir; stat
// fills in the size and time of regular files.
func readDir(f *os.File, stat bool, visit func(*dirEntry)) error {
	ents, err := f.ReadDir(-1)
	for _, e := range ents {
		de := dirEntry{name: e.Name(), mode: e.Type()}
		if de.mode.IsRegular() && stat {
			info, err := e.Info()
			if err != nil {
				continue
			}
			de.size, de.mtime, de.statted = info.Size(), info.ModTime(), true
		}
		if de.mode&^(fs.ModeDir|fs.ModeSymlink) != 0 {
			continue // devices, sockets, pipes
		}
		visit(&de)
	}
	return err
}
