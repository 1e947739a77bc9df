//go:build !desktop && !bindings

package app

import (
	"fmt"
	"io/fs"
	"os"
)

// Headless is true in a build without the window (no Wails, no cgo): main runs every
// argument as a subcommand there (package cli), which explains how to get a window.
const Headless = true

// runDesktop is not reached in the headless build (see Headless).
func runDesktop(_ fs.FS, _ []string) int {
	fmt.Fprintln(os.Stderr, "memotree: this build has no window; run memotree help")
	return 2
}
