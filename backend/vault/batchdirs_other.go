//go:build !linux

package vault

import (
	"io/fs"
	"os"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/vpath"
)

// batchDirs is, on this system, the os.Root path for every call of a batch (Linux
// keeps the batch's folders open instead).
type batchDirs struct{ v *Vault }

func (v *Vault) newBatchDirs() *batchDirs { return &batchDirs{v: v} }

func (b *batchDirs) close() {}

func (b *batchDirs) lstat(p vpath.Path) (fs.FileMode, error) {
	st, err := b.v.root.Lstat(osName(p))
	if err != nil {
		return 0, err
	}
	return st.Mode(), nil
}

func (b *batchDirs) readFile(p vpath.Path) ([]byte, error) { return readRegular(b.v.root, osName(p)) }

func (b *batchDirs) createTemp(d vpath.Path, name string, perm fs.FileMode, exact bool, data []byte) error {
	tmp := d.Join(name)
	if err := fsfault.Check("create", string(tmp)); err != nil {
		return err
	}
	f, err := b.v.root.OpenFile(osName(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
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

func (b *batchDirs) rename(from, to vpath.Path) error {
	return b.v.root.Rename(osName(from), osName(to))
}

func (b *batchDirs) syncDir(d vpath.Path) error { return b.v.syncDir(d) }
