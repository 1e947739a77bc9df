//go:build !unix

package script

import "time"

func cpuTime() time.Duration { return 0 }
