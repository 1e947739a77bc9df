package app

import (
	"context"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// openWindow opens what the window works on: the workspace of a serving face, with the
// models of the person's settings (workspace.OpenFace: semantic search and the auto
// summary follow the settings file the window edits), and the API the window binds,
// resolving the endpoint settings as the workspace does. With no specs the workspace
// starts empty (the welcome). prepare, when given, runs between the two: it mounts the
// vaults remembered from the last run and sets the vault switcher's options. It lives
// apart from the Wails shell so that a test opens the window's workspace without a
// display.
func openWindow(ctx context.Context, specs []workspace.Spec, o uiapi.Options, prepare func(*workspace.Workspace, *uiapi.Options) error) (*workspace.Workspace, *uiapi.API, error) {
	ws, err := workspace.OpenFace(ctx, specs, workspace.Face{Mode: workspace.Serving, Settings: o.Settings, AllowNone: len(specs) == 0})
	if err != nil {
		return nil, nil, err
	}
	if prepare != nil {
		if err := prepare(ws, &o); err != nil {
			ws.Close()
			return nil, nil, err
		}
	}
	o.WarmGraph = true
	return ws, uiapi.NewAPI(ws, o), nil
}
