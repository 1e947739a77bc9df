//go:build !unix

package note

import "time"

// processCPU is not measured on this platform; the benchmarks then report wall time
// only.
func processCPU() time.Duration { return 0 }
