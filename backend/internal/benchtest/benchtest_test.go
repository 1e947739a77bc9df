package benchtest

import (
	"runtime"
	"testing"
	"time"
)

// TestCPUGrowsWithWork burns CPU for a while and checks the reading moved by about as
// much (where CPU time is measured).
func TestCPUGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("CPU time is not measured on " + runtime.GOOS)
	}
	start := CPU()
	if start <= 0 {
		t.Fatalf("CPU() = %v at start, want the time used so far", start)
	}
	x := 0
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
		x++
	}
	if d := CPU() - start; d < 10*time.Millisecond {
		t.Errorf("50 ms of busy work moved the CPU time by %v (x=%d)", d, x)
	}
}
