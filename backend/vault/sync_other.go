//go:build !linux

package vault

import (
	"fmt"
	"os"
)

// syncAll makes the staged temporary files durable, one fsync each.
func syncAll(v *Vault, steps []step) error {
	for _, s := range steps {
		if s.Temp == "" {
			continue
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
