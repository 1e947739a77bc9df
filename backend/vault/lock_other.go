//go:build !unix && !windows

package vault

import "os"

// tryLockFile has no cross-process lock on this system: the Vault's in-process lock is
// all there is, which is enough when one process at a time uses a vault.
func tryLockFile(*os.File) (bool, error) { return true, nil }

// unlockFile does nothing on this system.
func unlockFile(*os.File) error { return nil }
