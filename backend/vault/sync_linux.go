//go:build linux

package vault

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
)

// syncAll makes the staged temporary files durable with one syncfs(2) of the vault's
// file system, which costs about as much as one fsync however many files there are.
func syncAll(v *Vault, _ []step) error {
	if err := fsfault.Check("sync", "."); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	f, err := regular.OpenDir(v.root, ".")
	if err != nil {
		return fmt.Errorf("sync: %w", mapErr(err))
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}
