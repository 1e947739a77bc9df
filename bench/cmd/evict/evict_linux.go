package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// evict flushes one file and asks the kernel to drop its cached pages.
func evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fd := int(f.Fd())
	if err := unix.Fdatasync(fd); err != nil {
		return fmt.Errorf("%s: fdatasync: %w", path, err)
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("%s: fadvise: %w", path, err)
	}
	return nil
}
