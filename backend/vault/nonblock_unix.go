//go:build unix

package vault

import "syscall"

// nonBlock opens a named pipe without waiting for its writer.
const nonBlock = syscall.O_NONBLOCK
