// Command fsynclat measures how long the disk under a folder takes to flush a small
// file (write 4 KB, fsync), the cost every note MemoTree writes pays, and prints it
// in a sentence for bench/run.sh:
//
//	fsynclat DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fsynclat DIR")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp(os.Args[1], "fsynclat-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsynclat:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	buf := make([]byte, 4096)
	var ds []time.Duration
	for i := range 40 {
		f, err := os.Create(filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "fsynclat:", err)
			os.Exit(1)
		}
		_, err = f.Write(buf)
		start := time.Now()
		if err == nil {
			err = f.Sync()
		}
		ds = append(ds, time.Since(start))
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fsynclat:", err)
			os.Exit(1)
		}
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("a 4 KB file flushed in %.2f ms (median of %d; 90th percentile %.2f ms)\n", ms(ds[len(ds)/2]), len(ds), ms(ds[len(ds)*9/10]))
}
