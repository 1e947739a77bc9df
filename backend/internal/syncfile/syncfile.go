// Package syncfile finishes the temporary file of an atomic write: the one sequence
// (mode, write, fsync, close) that the vault's writes, the settings files and git
// references share before they rename or link the file into place.
package syncfile

import (
	"io/fs"
	"os"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// Finish sets f's mode to perm when chmod is true (exactly, whatever the umask),
// writes data, syncs it to disk and closes f. f is closed whatever fails; the first
// error is returned.
func Finish(f *os.File, data []byte, perm fs.FileMode, chmod bool) error {
	var err error
	if chmod {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = fsfault.Check("write", f.Name())
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = fsfault.Check("sync", f.Name())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
