//go:build !linux

package gitrepo

import (
	"os"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat leaves the platform's stat data out; git then compares content.
func fillStat(*index.Entry, os.FileInfo) {}

// statFile returns the lstat data of one file.
func statFile(path string) (workFile, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return workFile{}, err
	}
	return workFile{size: fi.Size(), mtime: unixTime{fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())}, mode: fi.Mode()}, nil
}
