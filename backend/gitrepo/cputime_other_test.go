//go:build !unix

package gitrepo_test

import "time"

// processCPU is not measured on this system.
func processCPU() time.Duration { return 0 }
