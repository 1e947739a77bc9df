//go:build unix

package search

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/memotree/memotree/backend/vault"
)

// mapFile maps the internal file name of v read-only; release unmaps it. Replacing
// the file (saves rename a new one into place) leaves the mapping valid.
func mapFile(v *vault.Vault, name string) ([]byte, func(), error) {
	path, err := v.InternalPath(name)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	if st.Size() > 1<<40 {
		return nil, nil, errors.New("search index: file too large to map")
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	return data, func() { _ = syscall.Munmap(data) }, nil
}
