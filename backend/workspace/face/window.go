package face

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/memotree/memotree/backend/httpapi"
	"github.com/memotree/memotree/backend/llm"
	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/vaults"
	"github.com/memotree/memotree/backend/workspace"
)

// WindowOptions are what the window's host adds to the flags: the desktop app, or
// `memotree serve` for a browser.
type WindowOptions struct {
	// Folder is a FOLDER named on the command line (absolute): opened as a vault,
	// made the default and remembered. Only without --library.
	Folder string
	// Demo adds the demo vault to the libraries (the app's --demo).
	Demo bool
	// OpenOthers lets the person open and close other vaults in a window given its
	// libraries on the command line, without remembering them (the desktop app);
	// otherwise such a window serves exactly those (`memotree serve --library`).
	OpenOthers bool
	// PickFolder shows the system's folder chooser (the desktop app), Reveal shows a
	// file in the system's file manager (the desktop app).
	PickFolder func() (string, error)
	Reveal     func(path string) error
	// OnRendered and OnWelcome hear the window's reports (the app's smoke test).
	OnRendered func(uiapi.RenderReport)
	OnWelcome  func()
	// Settings resolves the model endpoint settings of the workspace's models and of
	// the window's agent (the zero Resolver: the settings file the window edits, and
	// the environment).
	Settings llm.Resolver
	// StatePath is the file of the remembered vaults; "" is vaults.DefaultPath.
	StatePath string
}

// Window is the window's side of MemoTree, open: the workspace, the API the window
// talks to, and what it hosts (the approval queue of MCP clients that cannot ask the
// person, the backups to the remotes).
type Window struct {
	Workspace *workspace.Workspace
	API       *uiapi.API
	// Store holds the remembered vaults (nil for `memotree serve --library`): the
	// desktop app keeps its geometry and recent vaults there.
	Store *vaults.Store
	// Notices are what went wrong on the way, none fatal (a remembered vault gone, no
	// approval queue): the host prints them.
	Notices []string

	stops []func()
}

// OpenWindow opens the window's workspace (a serving face: watched, scanned in the
// background, nothing written in a folder until someone writes) with the models of
// the person's settings, and its API. With --library (or --demo) it opens exactly
// those; otherwise the vaults open last time and o.Folder, remembering what the person
// opens and closes from then on, or none (the welcome). The window then hosts the
// approval queue of its vaults and their backups. Close closes it all.
func OpenWindow(ctx context.Context, f Flags, o WindowOptions) (*Window, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	specs := f.Libraries
	if o.Demo {
		spec, err := workspace.DemoSpec()
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	if o.Folder != "" && len(specs) > 0 {
		return nil, fmt.Errorf("give either --library NAME=PATH or a FOLDER, not both")
	}
	face := f.face(workspace.Serving)
	face.Settings, face.AllowNone = o.Settings, len(specs) == 0
	ws, err := workspace.OpenFace(ctx, specs, face)
	if err != nil {
		return nil, err
	}
	w := &Window{Workspace: ws}
	vo, err := w.switcher(ctx, len(specs) == 0, o)
	if err != nil {
		ws.Close()
		return nil, err
	}
	for _, name := range f.unknownPermissions(ws) {
		w.Notices = append(w.Notices, fmt.Sprintf("--permission names %q, which is not open now: it applies to the vault of that name when it opens", name))
	}
	w.API = uiapi.NewAPI(ws, uiapi.Options{Settings: o.Settings, WarmGraph: true, Vaults: vo,
		Reveal: o.Reveal, OnRendered: o.OnRendered, OnWelcome: o.OnWelcome})
	// MCP clients on these vaults that cannot ask the person put their destructive
	// calls in the window's approval queue.
	if stop, err := uiapi.ServeApprovals(w.API); err != nil {
		w.Notices = append(w.Notices, "no approval queue for MCP clients: "+err.Error())
	} else {
		w.stops = append(w.stops, stop)
	}
	// Vaults whose settings ask for it are backed up to their remotes.
	if stop, err := uiapi.ServeBackups(w.API, uiapi.BackupOptions{}); err != nil {
		w.Notices = append(w.Notices, "no backups to the remotes: "+err.Error())
	} else {
		w.stops = append(w.stops, stop)
	}
	return w, nil
}

// switcher returns the vault switcher's options: with no libraries given, it mounts
// the vaults remembered from the last run and o.Folder, and remembers what the person
// opens and closes; with libraries given, the desktop app still lets them open others
// (remembering none), and `memotree serve` serves just those (nil).
func (w *Window) switcher(ctx context.Context, remembered bool, o WindowOptions) (*uiapi.VaultOptions, error) {
	if !remembered && !o.OpenOthers {
		return nil, nil
	}
	path := o.StatePath
	if path == "" {
		var err error
		if path, err = vaults.DefaultPath(); err != nil {
			return nil, err
		}
	}
	store, err := vaults.Load(path)
	vo := &uiapi.VaultOptions{Store: store, Remember: remembered, PickFolder: o.PickFolder}
	if err != nil { // damaged: start with nothing remembered, say so
		vo.Notices = append(vo.Notices, err.Error())
	}
	if remembered {
		vo.Notices = append(vo.Notices, uiapi.MountRemembered(ctx, w.Workspace, store, o.Folder)...)
	}
	w.Store = store
	w.Notices = append(w.Notices, vo.Notices...)
	return vo, nil
}

// Handler serves the window to a browser (`memotree serve`): the page from assets and
// the API over HTTP, both behind the access token (package httpapi).
func (w *Window) Handler(assets fs.FS, token string) http.Handler {
	return httpapi.Handler(httpapi.Deps{API: w.API, Bus: w.Workspace.Bus(), Assets: assets, Token: token})
}

// Close stops what the window hosts and closes its workspace.
func (w *Window) Close() {
	for i := len(w.stops) - 1; i >= 0; i-- {
		w.stops[i]()
	}
	w.Workspace.Close()
}

// BindingsAPI returns an API over no workspace, for `wails build` to generate the
// window's JavaScript bindings from its type.
func BindingsAPI() *uiapi.API { return uiapi.NewAPI(nil, uiapi.Options{}) }
