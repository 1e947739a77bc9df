//go:build !linux

package vault

import (
	"fmt"
	"os"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// syncAll makes the staged temporary files durable, one fsync each.
func syncAll(v *Vault, steps []step) error {
	for _, s := range steps {
		if s.Temp == "" {
			continue
		}
		if err := fsfault.Check("sync", string(s.Temp)); err != nil {
			return fmt.Errorf("sync %s: %w", s.Temp, err)
		}
		f, err := v.root.OpenFile(osName(s.Temp), os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("sync %s: %w", s.Temp, mapErr(err))
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return fmt.Errorf("sync %s: %w", s.Temp, err)
		}
	}
	return nil
}
