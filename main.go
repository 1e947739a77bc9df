// Command memotree is a local-first desktop app in which a person and an LLM agent share
// one Markdown knowledge vault. See README.md.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"os"

	"github.com/memotree/memotree/app"
	"github.com/memotree/memotree/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

// main runs a subcommand when the first argument names one, or always in the build
// without the window (package cli); otherwise the desktop window (package app).
func main() {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		os.Exit(1)
	}
	args := os.Args[1:]
	if app.Headless || (len(args) > 0 && cli.IsCommand(args[0])) {
		os.Exit(cli.Run(dist, args))
	}
	os.Exit(app.Run(dist, args))
}
