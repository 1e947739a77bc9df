//go:build unix

package script

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used, which, unlike
// wall time, barely moves when other processes load the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
