//go:build !unix

package regular

import "os"

// NonBlock: opening a named pipe does not block on this system.
const NonBlock = 0

// DirFlags: a folder is opened plainly on this system.
const DirFlags = 0

// leased: no open answers for a lease here.
func leased(error) bool { return false }

// blocking: nothing was opened non-blocking here.
func blocking(*os.File) error { return nil }
