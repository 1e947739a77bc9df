//go:build !linux

package dirents

import (
	"io/fs"
	"os"
)

// List calls fn with the name and type of every entry of the open folder f.
func List(f *os.File, fn func(name []byte, typ fs.FileMode)) error {
	ents, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range ents {
		fn([]byte(e.Name()), e.Type())
	}
	return nil
}
