//go:build !unix

package regular

// NonBlock: opening a named pipe does not block on this system.
const NonBlock = 0

// DirFlags: a folder is opened plainly on this system.
const DirFlags = 0
