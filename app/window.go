package app

import (
	"context"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

// openWindow opens what the window works on: the workspace of a serving face, with the
// models of the person's settings (workspace.OpenFace: semantic search and the auto
// summary follow the settings file the window edits), and the API the window binds,
// resolving the endpoint settings as the workspace does. It lives apart from the Wails
// shell so that a test opens the window's workspace without a display.
func openWindow(ctx context.Context, specs []workspace.Spec, o uiapi.Options) (*workspace.Workspace, *uiapi.API, error) {
	ws, err := workspace.OpenFace(ctx, specs, workspace.Face{Mode: workspace.Serving, Settings: o.Settings})
	if err != nil {
		return nil, nil, err
	}
	o.WarmGraph = true
	return ws, uiapi.NewAPI(ws, o), nil
}
