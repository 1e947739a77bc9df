package benchtest

import (
	"runtime"
	"testing"
	"time"
)

// TestCPUGrowsWithWork does a fixed amount of work and checks the CPU reading moved
// (where CPU time is measured). The work is counted in steps, not in wall time: on
// a loaded machine a wall-clock loop gets little CPU, and the reading rightly moves
// little.
func TestCPUGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("CPU time is not measured on " + runtime.GOOS)
	}
	start := CPU()
	if start <= 0 {
		t.Fatalf("CPU() = %v at start, want the time used so far", start)
	}
	// 100 million xorshift steps: about 100-300 ms of one core on a current CPU,
	// more than 10 ms on any machine this runs on.
	x := uint64(88172645463325252)
	for range 100_000_000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	if d := CPU() - start; d < 10*time.Millisecond {
		t.Errorf("100 million steps of work moved the CPU time by %v (x=%d)", d, x)
	}
}
