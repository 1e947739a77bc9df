package gitrepo

import (
	"io/fs"
	"sync"
)

// folder is one folder of the working tree as the walk reads it: the names of its
// entries back to back in one buffer, each followed by a zero byte (so that a stat
// call can take it as it is), with their types. Folders are reused through
// folderPool, so a walk allocates nothing per entry.
type folder struct {
	dir   string // the folder's path on disk
	names []byte
	ents  []folderEnt
	sys   folderSys // the platform's handle on the open folder
}

// folderEnt is one entry of a folder: its name is names[off:off+n] and typ its type
// as listed (dirents.TypeUnknown when the file system does not report it).
type folderEnt struct {
	off, n int32
	typ    fs.FileMode
}

var folderPool = sync.Pool{New: func() any { return new(folder) }}

// name returns the i-th entry's name, valid until the folder is reused.
func (f *folder) name(i int) []byte {
	e := f.ents[i]
	return f.names[e.off : e.off+e.n]
}

// add appends an entry to the listing.
func (f *folder) add(name []byte, typ fs.FileMode) {
	f.ents = append(f.ents, folderEnt{off: int32(len(f.names)), n: int32(len(name)), typ: typ})
	f.names = append(append(f.names, name...), 0)
}

// readFolder opens and lists the folder at dir. The caller calls release when done
// with it.
func readFolder(dir string) (*folder, error) {
	f := folderPool.Get().(*folder)
	f.dir, f.names, f.ents = dir, f.names[:0], f.ents[:0]
	if err := f.open(); err != nil {
		folderPool.Put(f)
		return nil, err
	}
	return f, nil
}

// release closes the folder and returns it to the pool.
func (f *folder) release() {
	f.close()
	folderPool.Put(f)
}
