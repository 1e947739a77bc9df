//go:build !linux

package vault

import (
	"io/fs"
	"os"
)

// listDir calls fn with the name and type of every entry of the open folder f.
func listDir(f *os.File, fn func(name []byte, typ fs.FileMode)) error {
	ents, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range ents {
		fn([]byte(e.Name()), e.Type())
	}
	return nil
}
