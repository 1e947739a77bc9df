//go:build unix

package search

import "syscall"

// noFollow opens a file without following a symbolic link in its place.
const noFollow = syscall.O_NOFOLLOW
