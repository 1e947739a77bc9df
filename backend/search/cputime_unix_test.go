//go:build unix

package search

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used, so that
// benchmarks can report it next to wall time on a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
