// Command evict drops the page cache of every regular file under the given folders,
// so that a benchmark can measure a cold read without root rights:
//
//	go run ./bench/cmd/evict DIR...
//
// Each file is flushed (fdatasync) and then released with
// posix_fadvise(POSIX_FADV_DONTNEED). Directory entries and inodes stay cached; only
// dropping all caches as root evicts those too.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: evict DIR...")
		os.Exit(2)
	}
	files, failed := 0, 0
	for _, root := range os.Args[1:] {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if err := evict(p); err != nil {
				failed++
				if failed <= 5 {
					fmt.Fprintln(os.Stderr, "evict:", err)
				}
				return nil
			}
			files++
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "evict:", err)
			os.Exit(1)
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "evict: %d of %d files could not be evicted\n", failed, files+failed)
		os.Exit(1)
	}
}
