//go:build unix

package search

import (
	"github.com/memotree/memotree/backend/internal/mapped"
	"github.com/memotree/memotree/backend/vault"
)

// mapFile maps the cache file name of v read-only; release unmaps it. Replacing
// the file (saves rename a new one into place) leaves the mapping valid.
func mapFile(v vault.State, name string) ([]byte, func(), error) {
	path, err := v.CachePath(name)
	if err != nil {
		return nil, nil, err
	}
	return mapped.File(path, mapped.Options{})
}
