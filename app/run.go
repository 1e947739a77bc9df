// Package app is the Wails shell: it decides between a subcommand and the desktop
// window, holds the window's run options and lifecycle, binds the API and is the one
// place that emits Wails events. Everything it does is delegated to backend packages.
package app

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/memotree/memotree/cli"
)

// Run is the whole program: a subcommand when the first argument names one, otherwise
// the desktop window. It returns the exit code.
func Run(assets fs.FS) int {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	args := os.Args[1:]
	if len(args) > 0 && cli.IsCommand(args[0]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return cli.Main(ctx, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Assets: dist}, args)
	}
	return runDesktop(dist, args)
}
