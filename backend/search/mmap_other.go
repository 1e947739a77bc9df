//go:build !unix

package search

import "github.com/memotree/memotree/backend/vault"

// mapFile reads the cache file name of v into memory (no mapping here).
func mapFile(v vault.State, name string) ([]byte, func(), error) {
	data, err := v.ReadCache(name)
	return data, func() {}, err
}
