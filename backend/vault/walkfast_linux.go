//go:build linux

package vault

import (
	"encoding/binary"
	"io/fs"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// direntBufs holds the buffers getdents fills, reused from folder to folder.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// readDir calls visit with each entry of the folder f (the entry is reused
// between calls), listing it with getdents and, for the entries that need it,
// fstatat relative to f: no *os.File, DirEntry or FileInfo per entry. os.ReadDir on a
// folder opened through os.Root stats every entry (folders too) and allocates three
// objects for each; a walk of 10,000 notes spent most of its time there. Names are
// looked up relative to the open folder without following links, so nothing here
// can leave the vault; links are resolved by the caller through os.Root.
func readDir(f *os.File, stat bool, visit func(*dirEntry)) error {
	fd := int(f.Fd())
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var e dirEntry
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ, raw := b[18], b[19:reclen]
			b = b[reclen:]
			for i, c := range raw {
				if c == 0 {
					raw = raw[:i]
					break
				}
			}
			if len(raw) == 0 || string(raw) == "." || string(raw) == ".." {
				continue
			}
			e = dirEntry{name: string(raw)}
			switch typ {
			case unix.DT_DIR:
				e.mode = fs.ModeDir
			case unix.DT_REG:
				e.mode = 0
			case unix.DT_LNK:
				e.mode = fs.ModeSymlink
			case unix.DT_UNKNOWN:
				e.mode = fs.ModeIrregular // stat below tells
			default:
				continue // devices, sockets, pipes
			}
			if stat && e.mode == 0 || e.mode == fs.ModeIrregular {
				var st unix.Stat_t
				err := unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW)
				for err == unix.EINTR {
					err = unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW)
				}
				if err != nil {
					continue // gone since the listing (or unreadable): as if absent
				}
				switch st.Mode & unix.S_IFMT {
				case unix.S_IFDIR:
					e.mode = fs.ModeDir
				case unix.S_IFREG:
					e.mode = 0
				case unix.S_IFLNK:
					e.mode = fs.ModeSymlink
				default:
					continue
				}
				e.size, e.mtime, e.statted = st.Size, time.Unix(st.Mtim.Sec, st.Mtim.Nsec), true
			}
			visit(&e)
		}
	}
}
