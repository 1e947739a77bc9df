//go:build !linux

package vault

import (
	"errors"
	"io/fs"
	"os"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// batchDirs is, on this system, the os.Root path for every call of a batch (Linux
// keeps the batch's folders open instead). It is the portable half of the resolver
// (resolve.go): before each call that writes, every folder on the way is checked to be
// a folder and not a symbolic link (or a Windows junction), and the call is refused
// otherwise (linkInWay). Unlike Linux's descriptors, that check and the call are two
// steps: a program that replaces a folder by a link in between is not stopped here.
type batchDirs struct{ v *Vault }

func (v *Vault) newBatchDirs() *batchDirs { return &batchDirs{v: v} }

func (b *batchDirs) close() {}

// folder checks that every component of the folder d is a folder, none a link.
func (b *batchDirs) folder(d vpath.Path) error {
	for _, p := range prefixes(d) {
		st, err := b.v.root.Lstat(osName(p))
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() && st.Mode()&fs.ModeIrregular != 0 {
			return linkInWay(p)
		}
	}
	return nil
}

// prefixes returns the folders from the top down to d itself ("a", "a/b", "a/b/c").
func prefixes(d vpath.Path) []vpath.Path {
	var out []vpath.Path
	for p := d; p != ""; p = p.Dir() {
		out = append([]vpath.Path{p}, out...)
	}
	return out
}

func (b *batchDirs) lstat(p vpath.Path) (fs.FileMode, error) {
	if err := b.folder(p.Dir()); err != nil {
		return 0, err
	}
	st, err := b.v.root.Lstat(osName(p))
	if err != nil {
		return 0, err
	}
	return st.Mode(), nil
}

func (b *batchDirs) readlink(p vpath.Path) (string, error) {
	if err := b.folder(p.Dir()); err != nil {
		return "", err
	}
	return b.v.root.Readlink(osName(p))
}

func (b *batchDirs) readFile(p vpath.Path) ([]byte, error) { return readRegular(b.v.root, osName(p)) }

func (b *batchDirs) createTemp(d vpath.Path, name string, perm fs.FileMode, exact bool, data []byte) error {
	tmp := d.Join(name)
	if err := fsfault.Check("create", string(tmp)); err != nil {
		return err
	}
	f, err := b.openTemp(tmp, perm)
	if err != nil {
		return err
	}
	if exact {
		err = f.Chmod(perm) // exactly, whatever the umask
	}
	if err == nil {
		err = fsfault.Check("write", string(tmp))
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = b.v.root.Remove(osName(tmp))
	}
	return err
}

func (b *batchDirs) openTemp(p vpath.Path, perm fs.FileMode) (*os.File, error) {
	if err := b.folder(p.Dir()); err != nil {
		return nil, err
	}
	// O_EXCL: os.Root follows no link at the name it creates.
	return b.v.root.OpenFile(osName(p), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}

func (b *batchDirs) openFile(p vpath.Path, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	if err := b.folder(p.Dir()); err != nil {
		return nil, nil, err
	}
	if st, err := b.v.root.Lstat(osName(p)); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, linkInWay(p)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	return regular.OpenFile(b.v.root, osName(p), flag, perm)
}

// renameOnce moves from to to, replacing what is at to, through os.Root; rename
// retries it.
func (b *batchDirs) renameOnce(from, to vpath.Path) error {
	if err := b.folder(from.Dir()); err != nil {
		return err
	}
	if err := b.folder(to.Dir()); err != nil {
		return err
	}
	return b.v.root.Rename(osName(from), osName(to))
}

func (b *batchDirs) link(from, to vpath.Path) error {
	if err := b.folder(from.Dir()); err != nil {
		return err
	}
	if err := b.folder(to.Dir()); err != nil {
		return err
	}
	return b.v.root.Link(osName(from), osName(to))
}

func (b *batchDirs) remove(p vpath.Path) error {
	if err := b.folder(p.Dir()); err != nil {
		return err
	}
	return b.v.root.Remove(osName(p))
}

func (b *batchDirs) mkdir(p vpath.Path, perm fs.FileMode) error {
	if err := b.folder(p.Dir()); err != nil {
		return err
	}
	return b.v.root.Mkdir(osName(p), perm)
}

func (b *batchDirs) syncDir(d vpath.Path) error { return b.v.syncDir(d) }

// hardLinked: the number of a file's names is not looked at on this system.
func hardLinked(fs.FileInfo) bool { return false }
