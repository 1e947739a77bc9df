//go:build unix

package gitrepo_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far, user and system. The
// benchmarks report it next to wall time because on a loaded machine wall time
// measures the machine, not the code.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
