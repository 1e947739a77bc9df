// Package filelock holds a lock on a file that other processes can see held without
// taking it: a process says "I am here" for as long as it lives (the kernel drops the
// lock when the process dies, however it dies), and others ask whether anyone is.
//
// On Linux the lock is an open file description lock (fcntl F_OFD_SETLK), which
// F_OFD_GETLK tests without acquiring it, so that any number of processes asking never
// disturb the holder or each other; unlike a classic POSIX record lock it belongs to
// the open file, so a test made by the holding process itself neither drops it nor
// passes it. Elsewhere Hold never holds and Held reports nobody.
package filelock

import "errors"

// ErrUnsupported is returned by Hold where the system has no such lock.
var ErrUnsupported = errors.New("file locks that others can test are not supported on this system")
