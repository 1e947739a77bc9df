//go:build !unix

package vault

// nonBlock: opening a named pipe does not block on this system.
const nonBlock = 0
