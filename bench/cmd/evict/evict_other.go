//go:build !linux

package main

import (
	"errors"
	"runtime"
)

// evict is only implemented on Linux.
func evict(string) error {
	return errors.New("evicting the page cache is not supported on " + runtime.GOOS)
}
