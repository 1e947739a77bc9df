//go:build !linux

package gitrepo

import (
	"io/fs"
	"os"
	"path/filepath"
)

// folderSys holds nothing: entries are stat'ed by path.
type folderSys struct{}

// open lists the folder's entries and their types.
func (f *folder) open() error {
	ents, err := os.ReadDir(f.dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		f.add([]byte(e.Name()), e.Type())
	}
	return nil
}

func (f *folder) close() {}

// stat returns the lstat data of the i-th entry; ok is false when the entry is gone
// or is neither a file, a folder nor a link.
func (f *folder) stat(i int) (workFile, bool) {
	fi, err := os.Lstat(filepath.Join(f.dir, string(f.name(i))))
	if err != nil {
		return workFile{}, false
	}
	m := fi.Mode()
	if !m.IsDir() && !m.IsRegular() && m&fs.ModeSymlink == 0 {
		return workFile{}, false
	}
	return workFile{size: fi.Size(), mtime: unixTime{fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())}, mode: m}, true
}

// typeOf returns the i-th entry's type.
func (f *folder) typeOf(i int) fs.FileMode { return f.ents[i].typ }
