//go:build linux

package dirents

import (
	"encoding/binary"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// dirent appends one linux_dirent64 record, padded to 8 bytes as the kernel pads it.
func dirent(b []byte, ino uint64, typ byte, name string) []byte {
	reclen := (direntName + len(name) + 1 + 7) &^ 7
	rec := make([]byte, reclen)
	binary.NativeEndian.PutUint64(rec, ino)
	binary.NativeEndian.PutUint16(rec[direntReclen:], uint16(reclen))
	rec[direntType] = typ
	copy(rec[direntName:], name)
	return append(b, rec...)
}

// TestParseDirents: every entry comes with its type, unknown types are marked, and
// ".", "..", deleted entries and a truncated record are skipped.
func TestParseDirents(t *testing.T) {
	var b []byte
	b = dirent(b, 1, unix.DT_DIR, ".")
	b = dirent(b, 2, unix.DT_DIR, "..")
	b = dirent(b, 3, unix.DT_REG, "Note.md")
	b = dirent(b, 0, unix.DT_REG, "deleted.md")
	b = dirent(b, 4, unix.DT_DIR, "sub folder")
	b = dirent(b, 5, unix.DT_LNK, "link")
	b = dirent(b, 6, unix.DT_UNKNOWN, "what.md")
	b = dirent(b, 7, unix.DT_FIFO, "pipe")
	b = dirent(b, 8, unix.DT_REG, "..md") // two dots and more: a name like any other
	b = dirent(b, 9, unix.DT_REG, "笔记.md")
	b = append(b, dirent(nil, 10, unix.DT_REG, "cut off.md")[:direntName+2]...)
	type ent struct {
		Name string
		Type fs.FileMode
	}
	var got []ent
	parseDirents(b, func(name []byte, typ fs.FileMode) { got = append(got, ent{string(name), typ}) })
	want := []ent{
		{"Note.md", 0}, {"sub folder", fs.ModeDir}, {"link", fs.ModeSymlink}, {"what.md", TypeUnknown},
		{"pipe", fs.ModeIrregular}, {"..md", 0}, {"笔记.md", 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseDirents (-want +got):\n%s", diff)
	}
}
