//go:build unix

package benchtest

import (
	"syscall"
	"time"
)

// CPU returns the CPU time (user and system) the process has used so far, which, unlike
// wall time, barely moves when other processes load the machine.
func CPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
