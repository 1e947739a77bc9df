//go:build unix

package regular

import "syscall"

// NonBlock opens a named pipe without waiting for its writer.
const NonBlock = syscall.O_NONBLOCK

// DirFlags open a folder only, without waiting: a named pipe in its place is refused.
const DirFlags = syscall.O_DIRECTORY | syscall.O_NONBLOCK
