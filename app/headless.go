//go:build !desktop && !bindings

package app

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/memotree/memotree/cli"
)

// runDesktop explains, in a build without the window, how to get one.
func runDesktop(_ fs.FS, _ []string) int {
	fmt.Fprint(os.Stderr, `memotree: this is the headless build: it has every subcommand but no window.
For the desktop app, build it with `+"`make build`"+` (Wails, cgo and WebKitGTK), or
serve the same interface to a browser with `+"`memotree serve`"+` (its welcome opens
your vaults) or `+"`memotree serve --library NAME=PATH`"+`.

`)
	cli.Usage(os.Stderr)
	return 2
}
