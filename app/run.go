// Package app is the Wails shell: the desktop window's flags, run options and
// lifecycle, its native menu and dialogs, and the one place that emits Wails events.
// What the window works on (the workspace, the API it binds, the approvals and
// backups it hosts) is assembled by package face; the subcommands are package cli's,
// which main runs without this package.
package app

import "io/fs"

// Run opens the desktop window with args (its flags, or a FOLDER) on assets (the built
// frontend) and returns the exit code. A build without the window (Headless) has none
// to open: main runs the subcommands there.
func Run(assets fs.FS, args []string) int { return runDesktop(assets, args) }
