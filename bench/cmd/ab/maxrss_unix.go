//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSS returns the peak resident memory of a finished process, as the system
// reports it (kilobytes on Linux, bytes on macOS).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
