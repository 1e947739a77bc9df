//go:build desktop || bindings

package app

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"runtime"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
	"github.com/memotree/memotree/cli"
)

// runDesktop opens the window.
func runDesktop(assets fs.FS, args []string) int {
	if generatingBindings {
		// `wails build` runs the program to generate the JavaScript bindings: bind the
		// API type and let Wails do the rest. Nothing is opened.
		return runWails(&options.App{AssetServer: &assetserver.Options{Assets: assets}, Bind: []any{uiapi.NewAPI(nil, uiapi.Options{})}})
	}
	wd, _ := os.Getwd()
	f, err := parseDesktopFlags(args, wd, os.Stderr)
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(os.Stderr, "memotree:", err)
			return 2
		}
		return 0
	}
	statePath, err := vaults.DefaultPath()
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	id := instanceID(statePath)
	if forwarded, err := forwardToRunning(id, args); forwarded {
		fmt.Fprintln(os.Stderr, "memotree: MemoTree is running; its window takes it from here")
		return 0
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
	}
	// Without a display GTK cannot start (Wails panics): say so before anything opens.
	if why := noDisplay(runtime.GOOS, os.Getenv, dialDisplay); why != "" {
		fmt.Fprint(os.Stderr, noDisplayMessage(why))
		return 1
	}
	sh, err := openShell(f, statePath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	defer sh.ws.Close()
	// MCP clients on these vaults that cannot ask the person put their destructive
	// calls in the window's approval queue.
	if stop, err := uiapi.ServeApprovals(sh.api); err != nil {
		fmt.Fprintln(os.Stderr, "memotree: no approval queue for MCP clients:", err)
	} else {
		defer stop()
	}
	// Vaults whose settings ask for it are backed up to their remotes.
	if stop, err := uiapi.ServeBackups(sh.api, uiapi.BackupOptions{}); err != nil {
		fmt.Fprintln(os.Stderr, "memotree: no backups to the remotes:", err)
	} else {
		defer stop()
	}
	win := sh.store.State().Window
	app := &options.App{
		Title:            "MemoTree",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 1},
		OnStartup:        sh.startup,
		OnDomReady:       sh.domReady,
		OnBeforeClose:    sh.beforeClose,
		OnShutdown:       sh.shutdown,
		Bind:             []any{sh.api},
		Menu:             sh.buildMenu(recentPaths(sh.store, 8)),
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               id,
			OnSecondInstanceLaunch: sh.secondLaunch,
		},
	}
	if win.Width >= app.MinWidth && win.Height >= app.MinHeight {
		app.Width, app.Height = win.Width, win.Height
	}
	if win.Maximised {
		app.WindowStartState = options.Maximised
	}
	code := runWails(app)
	if f.smoke && code == 0 {
		return sh.smokeCode()
	}
	return code
}

// openShell opens the workspace the flags ask for: exactly the --library ones (or
// the demo vault), remembering nothing; otherwise the vaults open last time and the
// FOLDER named, remembered, or none (the welcome).
func openShell(f desktopFlags, statePath string) (*shell, error) {
	store, loadErr := vaults.Load(statePath)
	specs := f.specs
	if f.demo {
		spec, err := workspace.DemoSpec()
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	ctx := context.Background()
	sh := &shell{store: store, statePath: statePath, smoke: f.smoke, smokeHold: f.smokeHold, smokeWant: f.smokeReports}
	opts := uiapi.Options{Reveal: reveal}
	if f.smoke {
		opts.OnRendered = sh.smokeRendered
		opts.OnWelcome = sh.smokeWelcome
	}
	prepare := func(ws *workspace.Workspace, o *uiapi.Options) error {
		vo := &uiapi.VaultOptions{Store: store}
		if len(specs) == 0 {
			remembered, err := cli.RememberedVaults(ctx, ws, f.folder)
			if err != nil {
				return err
			}
			vo = remembered
			sh.store = remembered.Store
		} else if loadErr != nil {
			vo.Notices = append(vo.Notices, loadErr.Error())
		}
		vo.PickFolder = sh.pickFolder
		for _, n := range vo.Notices {
			fmt.Fprintln(os.Stderr, "memotree:", n)
		}
		o.Vaults = vo
		return nil
	}
	ws, api, err := openWindow(ctx, specs, opts, prepare)
	if err != nil {
		return nil, err
	}
	sh.ws, sh.api = ws, api
	if f.smoke {
		go sh.smokeDeadline(f.smokeTimeout)
	}
	return sh, nil
}

// recentPaths returns up to n recent vault folders that exist.
func recentPaths(store *vaults.Store, n int) []string {
	var out []string
	for _, r := range store.State().Recent {
		if st, err := os.Stat(r.Path); err == nil && st.IsDir() && len(out) < n {
			out = append(out, r.Path)
		}
	}
	return out
}

// runWails runs Wails with app and returns the exit code.
func runWails(app *options.App) (code int) {
	// A display that is set but unusable (no X authority, a server that refuses us)
	// passes noDisplay and makes GTK fail: the same message, no stack trace.
	defer func() {
		if v := recover(); v != nil {
			if !noDisplayPanic(v) {
				panic(v)
			}
			fmt.Fprint(os.Stderr, noDisplayMessage(fmt.Sprintf("GTK could not open the display %q", cmp.Or(os.Getenv("WAYLAND_DISPLAY"), os.Getenv("DISPLAY")))))
			code = 1
		}
	}()
	if err := wails.Run(app); err != nil {
		fmt.Fprintln(os.Stderr, "memotree:", err)
		return 1
	}
	return 0
}
