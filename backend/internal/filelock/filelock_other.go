//go:build !linux

package filelock

// Hold never holds on this system.
func Hold(string) (release func(), ok bool, err error) { return nil, false, ErrUnsupported }

// Held reports nobody on this system.
func Held(string) (bool, error) { return false, nil }
