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

	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace/face"
)

// Headless is false in the build with the window.
const Headless = false

// runDesktop opens the window.
func runDesktop(assets fs.FS, args []string) int {
	if generatingBindings {
		// `wails build` runs the program to generate the JavaScript bindings: bind the
		// API type and let Wails do the rest. Nothing is opened.
		return runWails(&options.App{AssetServer: &assetserver.Options{Assets: assets}, Bind: []any{face.BindingsAPI()}})
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
	defer sh.win.Close()
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

// openShell opens the window's side of MemoTree as the flags ask (face.OpenWindow):
// exactly the --library ones (or the demo vault), remembering nothing, the person
// free to open others; otherwise the vaults open last time and the FOLDER named,
// remembered, or none (the welcome). It hosts the approval queue and the backups.
func openShell(f desktopFlags, statePath string) (*shell, error) {
	sh := &shell{statePath: statePath, smoke: f.smoke, smokeHold: f.smokeHold, smokeWant: f.smokeReports}
	o := face.WindowOptions{Folder: f.folder, Demo: f.demo, OpenOthers: true, PickFolder: sh.pickFolder, Reveal: reveal, StatePath: statePath}
	if f.smoke {
		o.OnRendered, o.OnWelcome = sh.smokeRendered, sh.smokeWelcome
	}
	win, err := face.OpenWindow(context.Background(), f.flags, o)
	if err != nil {
		return nil, err
	}
	for _, n := range win.Notices {
		fmt.Fprintln(os.Stderr, "memotree:", n)
	}
	sh.win, sh.ws, sh.api, sh.store = win, win.Workspace, win.API, win.Store
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
