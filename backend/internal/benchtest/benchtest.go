// Package benchtest holds what the benchmarks of several packages share: the process's
// CPU time, reported beside wall time, since on a loaded machine wall time measures
// the machine as much as the code.
package benchtest

import (
	"testing"
	"time"
)

// ReportCPU reports the process's CPU time per operation since start (a CPU reading
// taken before the loop) as the metric cpu-ms/op. It reports nothing where CPU time is
// not measured.
func ReportCPU(b *testing.B, start time.Duration) {
	if d := CPU() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}
