//go:build !unix

package mapped

import "github.com/memotree/memotree/backend/internal/regular"

// File reads the file at path (no mapping here); release does nothing.
func File(path string, _ Options) (data []byte, release func(), err error) {
	data, err = regular.ReadPath(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
