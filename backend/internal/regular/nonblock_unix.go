//go:build unix

package regular

import "syscall"

// NonBlock opens a named pipe without waiting for its writer.
const NonBlock = syscall.O_NONBLOCK
