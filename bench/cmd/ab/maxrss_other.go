//go:build !unix

package main

import "os"

// peakRSS is not measured on this system: it returns 0.
func peakRSS(*os.ProcessState) int64 { return 0 }
