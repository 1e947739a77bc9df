// Package cli implements memotree's subcommands: their command lines, the loopback
// listeners, and the terminal. What each assembles (its workspace, the window's API,
// the MCP server, the agent) comes from package face, with the flags every face takes.
// Each works without a display and in a build without cgo.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/backend/workspace/face"
)

// Env is what a subcommand runs with.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Assets is the built frontend (index.html at its root), served by `serve`.
	Assets fs.FS
}

// command is one subcommand: its line in the usage, and what runs it.
type command struct {
	summary string
	run     func(ctx context.Context, env Env, args []string) int
}

var commands = map[string]command{
	"index":   {"index libraries and print statistics as JSON", runIndex},
	"serve":   {"serve the app to a browser on 127.0.0.1 (token-protected)", runServe},
	"call":    {"run one tool and print its result (YAML, or JSON with --json)", runCall},
	"mcp":     {"serve the tools over MCP: stdio, or streamable HTTP on loopback with --http", runMCP},
	"chat":    {"chat with the agent in the terminal, or answer one prompt with -p", runChat},
	"doctor":  {"check a vault: interrupted writes, broken notes and links, shared names (--repair)", runDoctor},
	"version": {"print the version, the commit it was built from and the Go version (also --version)", runVersion},
}

// IsCommand reports whether arg names a subcommand or asks for help or the version.
func IsCommand(arg string) bool {
	_, ok := commands[arg]
	return ok || arg == "help" || arg == "-h" || arg == "--help" || arg == "-help" || isVersionFlag(arg)
}

// Run is the program of a build without the window, and the subcommands of one with
// it: the subcommand args[0] names, stopped by Ctrl-C or SIGTERM, with the standard
// streams and assets (the built frontend, served by `serve`). An argument that names
// no subcommand gets the headless build's explanation. It returns the exit code.
func Run(assets fs.FS, args []string) int {
	if len(args) == 0 || !IsCommand(args[0]) {
		fmt.Fprint(os.Stderr, `memotree: this is the headless build: it has every subcommand but no window.
For the desktop app, build it with `+"`make build`"+` (Wails, cgo and WebKitGTK), or
serve the same interface to a browser with `+"`memotree serve`"+` (its welcome opens
your vaults) or `+"`memotree serve --library NAME=PATH`"+`.

`)
		Usage(os.Stderr)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Main(ctx, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Assets: assets}, args)
}

// Main runs the subcommand named by args[0] and returns the process exit code:
// 0 success, 1 failure, 2 usage error.
func Main(ctx context.Context, env Env, args []string) int {
	if len(args) == 0 || args[0] == "help" || strings.TrimLeft(args[0], "-") == "help" || args[0] == "-h" {
		Usage(env.Stdout)
		return 0
	}
	if isVersionFlag(args[0]) {
		return runVersion(ctx, env, args[1:])
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "memotree: unknown command %q\n\n", args[0])
		Usage(env.Stderr)
		return 2
	}
	return c.run(ctx, env, args[1:])
}

// Usage prints the list of subcommands.
func Usage(w io.Writer) {
	fmt.Fprint(w, `MemoTree: a Markdown knowledge vault shared by you and an LLM agent.

Usage:
  memotree [FOLDER]                        open the desktop app (on FOLDER, as a vault)
  memotree --library NAME=PATH... | --demo open the desktop app on exactly these libraries
  memotree <command> [flags]

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, "\nRun `memotree <command> -h` for a command's flags.\n")
}

// parseFlags parses args, printing errors to env.Stderr; ok is false on a usage error
// (or -h, with code 0).
func parseFlags(fs *flag.FlagSet, env Env, args []string) (code int, ok bool) {
	fs.SetOutput(env.Stderr)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "memotree %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// parseInterspersed parses args with fs allowing flags before, between and after the
// positional arguments (`call TOOL --library N=P`), as most command lines do; the
// positional arguments come back in order. "--" ends the flags: what follows it is
// positional, as is a lone "-".
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" && (used < 2 || !takesValue(fs, args[used-2])) {
			return append(rest, left...), nil // flag stopped at "--"
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// takesValue reports whether arg is a flag of fs written without "=" whose value is
// the next argument (any flag but a boolean one).
func takesValue(fs *flag.FlagSet, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if !strings.HasPrefix(arg, "-") || name == "" || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// fail prints an error for command name and returns exit code 1.
func fail(env Env, name string, err error) int {
	fmt.Fprintf(env.Stderr, "memotree %s: %v\n", name, err)
	return 1
}

// requireLibraries reports whether specs name a library, telling the person to pass
// --library when they do not.
func requireLibraries(env Env, name string, specs []workspace.Spec) bool {
	if len(specs) == 0 {
		fmt.Fprintf(env.Stderr, "memotree %s: no library: pass --library NAME=PATH\n", name)
		return false
	}
	return true
}

// checkFaceFlags reports whether the flags every face takes hold together (each
// --permission names a --library), telling the person when they do not.
func checkFaceFlags(env Env, name string, f face.Flags) bool {
	if err := f.Check(); err != nil {
		fmt.Fprintf(env.Stderr, "memotree %s: %v\n", name, err)
		return false
	}
	return true
}

// isTerminal reports whether w is a terminal (for friendlier output, or a question
// the person can answer).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
