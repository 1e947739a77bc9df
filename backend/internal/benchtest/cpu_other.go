//go:build !unix

package benchtest

import "time"

// CPU is not measured on this platform: it returns 0, and the benchmarks report wall
// time only.
func CPU() time.Duration { return 0 }
