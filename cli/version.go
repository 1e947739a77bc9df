package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// commit is the revision the binary was built from, for a build without version
// control information (from a source archive, or with -buildvcs=false); a packager
// sets it with -ldflags "-X github.com/memotree/memotree/cli.commit=REVISION". When
// empty, the revision Go stamped into the binary is read instead.
var commit string

// isVersionFlag reports whether arg asks for the version as a flag: --version or
// -version.
func isVersionFlag(arg string) bool {
	return arg == "--version" || arg == "-version"
}

// runVersion prints the version, the commit and the Go version; it takes no
// arguments.
func runVersion(_ context.Context, env Env, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(env.Stderr, "memotree version: unexpected argument %q: the command takes none\n", args[0])
		return 2
	}
	bi, ok := debug.ReadBuildInfo()
	writeVersion(env.Stdout, bi, ok, commit)
	return 0
}

// writeVersion writes the three lines of `memotree version`: MemoTree's version, the
// commit (override when set, else the vcs.revision bi carries, with its time and
// whether the working tree was modified), and the Go version and platform.
func writeVersion(w io.Writer, bi *debug.BuildInfo, ok bool, override string) {
	fmt.Fprintf(w, "memotree %s\n", Version)
	settings := map[string]string{}
	goVersion := runtime.Version()
	if ok && bi != nil {
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	switch rev := settings["vcs.revision"]; {
	case override != "":
		fmt.Fprintf(w, "commit %s\n", override)
	case rev != "":
		line := "commit " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " (" + t
			if settings["vcs.modified"] == "true" {
				line += ", with uncommitted changes"
			}
			line += ")"
		} else if settings["vcs.modified"] == "true" {
			line += " (with uncommitted changes)"
		}
		fmt.Fprintln(w, line)
	default:
		fmt.Fprintln(w, "commit unknown (built without version control information)")
	}
	fmt.Fprintf(w, "%s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
