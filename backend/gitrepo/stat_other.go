//go:build !linux

package gitrepo

import (
	"io/fs"
	"os"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat leaves the platform's stat data out; git then compares content.
func fillStat(*index.Entry, os.FileInfo) {}

// readDir lists a folder with the lstat data of each entry.
func readDir(dir string) ([]dirEnt, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirEnt, 0, len(ents))
	for _, d := range ents {
		fi, err := d.Info()
		if err != nil {
			continue // removed since listed
		}
		m := fi.Mode()
		if !m.IsDir() && !m.IsRegular() && m&fs.ModeSymlink == 0 {
			continue
		}
		out = append(out, dirEnt{name: d.Name(), workFile: workFile{size: fi.Size(), mtime: unixTime{fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())}, mode: m}})
	}
	return out, nil
}

// statFile returns the lstat data of one file.
func statFile(path string) (workFile, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return workFile{}, err
	}
	return workFile{size: fi.Size(), mtime: unixTime{fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())}, mode: fi.Mode()}, nil
}
