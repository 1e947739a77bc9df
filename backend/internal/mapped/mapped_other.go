//go:build !unix

package mapped

import "os"

// File reads the file at path (no mapping here); release does nothing.
func File(path string, _ Options) (data []byte, release func(), err error) {
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
