package gitrepo

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at name read-only, its pages already in place
// (MAP_POPULATE): reading a megabyte-sized index this way costs one system call,
// where reading it into fresh heap memory costs a page fault per 4 KB on top of the
// copy. The caller calls release once nothing refers to b any more; a file that
// cannot be mapped is read instead. Like git, which maps its index too, this relies
// on the index being replaced by a rename, never cut short in place (a mapped page
// past the end of a truncated file would fault).
func mapFile(name string) (b []byte, release func(), err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 || size != int64(int(size)) {
		b, err := os.ReadFile(name)
		return b, func() {}, err
	}
	b, err = unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE|unix.MAP_POPULATE)
	if err != nil {
		b, err := os.ReadFile(name)
		return b, func() {}, err
	}
	return b, func() { unix.Munmap(b) }, nil
}
