package app

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/memotree/memotree/backend/workspace/face"
)

// desktopFlags are the flags of the window.
type desktopFlags struct {
	flags        face.Flags // --library and --permission, as every face takes them
	folder       string     // a FOLDER named on the command line, absolute
	demo         bool
	smoke        bool
	smokeTimeout time.Duration
	smokeHold    time.Duration
	smokeReports int
}

// parseDesktopFlags parses the window's arguments; a relative FOLDER is taken from wd
// (the working folder of the launch, which for a second launch is not ours).
func parseDesktopFlags(args []string, wd string, out io.Writer) (desktopFlags, error) {
	var f desktopFlags
	fs := flag.NewFlagSet("memotree", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: memotree [FOLDER]                  open the app (on FOLDER, as a vault)
       memotree --library NAME=PATH...     open the app on exactly these libraries
       memotree --demo                     open the app on the demo vault
       memotree <command> [flags]          see memotree help

`)
		fs.PrintDefaults()
	}
	// A relative library is taken from the launch's working folder: a second
	// launch's is its own. Given libraries are not remembered.
	f.flags.Register(fs, wd)
	fs.BoolVar(&f.demo, "demo", false, "open the demo vault (copied into your data folder on first use)")
	fs.BoolVar(&f.smoke, "smoke-test", false, "open, wait until the window reports what it shows (the notes rendered, or the welcome), print it, exit")
	fs.DurationVar(&f.smokeTimeout, "smoke-timeout", 90*time.Second, "how long the smoke test waits for the window's reports")
	fs.DurationVar(&f.smokeHold, "smoke-hold", 3*time.Second, "how long the smoke test keeps the window open after the last report (for a screenshot)")
	fs.IntVar(&f.smokeReports, "smoke-reports", 1, "how many reports the smoke test waits for (a second launch makes one more)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		f.folder = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return f, err
		}
		if fs.NArg() > 0 {
			return f, fmt.Errorf("unexpected argument %q: one folder at most", fs.Arg(0))
		}
		if !filepath.IsAbs(f.folder) {
			f.folder = filepath.Join(wd, f.folder)
		}
	}
	if f.folder != "" && len(f.flags.Libraries) > 0 {
		return f, fmt.Errorf("give either --library NAME=PATH or a FOLDER, not both")
	}
	return f, nil
}

// instanceID is the single-instance id of the app for one user's config folder: a
// second launch by the same person reaches the running window, while a test run with
// a home folder of its own starts a window of its own.
func instanceID(statePath string) string {
	sum := sha256.Sum256([]byte(statePath))
	return "memotree_" + hex.EncodeToString(sum[:8])
}
