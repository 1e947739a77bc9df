//go:build !linux

package gitrepo

import "os"

// mapFile reads the file at name; release does nothing.
func mapFile(name string) (b []byte, release func(), err error) {
	b, err = os.ReadFile(name)
	return b, func() {}, err
}
