//go:build unix

package vault

import (
	"errors"
	"os"
	"syscall"
)

// tryLockFile takes an exclusive flock on f without waiting; ok is false if another
// open file holds it.
func tryLockFile(f *os.File) (ok bool, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	}); err != nil {
		return false, err
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) || errors.Is(ferr, syscall.EINTR) {
		return false, nil
	}
	return ferr == nil, ferr
}

// unlockFile releases the flock on f (closing f would too).
func unlockFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = syscall.Flock(int(fd), syscall.LOCK_UN) }); err != nil {
		return err
	}
	return ferr
}
