//go:build desktop || bindings

package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The Wails runtime calls the shell makes, as function values: the runtime exits the
// process when given a context that is not Wails' own, so nothing else may call it
// directly, and a test can replace them.
var (
	// emit sends a Wails event to the window.
	emit = func(ctx context.Context, topic string, data any) { runtime.EventsEmit(ctx, topic, data) }
	// quit closes the window (OnBeforeClose runs first).
	quit = func(ctx context.Context) { runtime.Quit(ctx) }
	// pickFolder shows the system's folder chooser; "" when cancelled.
	pickFolder = func(ctx context.Context, title string) (string, error) {
		return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
	}
	// windowGeometry reads the window's size, place and whether it is maximised.
	windowGeometry = func(ctx context.Context) (w, h, x, y int, maximised bool) {
		w, h = runtime.WindowGetSize(ctx)
		x, y = runtime.WindowGetPosition(ctx)
		return w, h, x, y, runtime.WindowIsMaximised(ctx)
	}
	// placeWindow moves the window.
	placeWindow = func(ctx context.Context, x, y int) { runtime.WindowSetPosition(ctx, x, y) }
	// raiseWindow shows the window in front, unminimised (a second launch).
	raiseWindow = func(ctx context.Context) {
		runtime.WindowUnminimise(ctx)
		runtime.WindowShow(ctx)
	}
	// openURL opens a web page in the person's browser.
	openURL = func(ctx context.Context, url string) { runtime.BrowserOpenURL(ctx, url) }
	// aboutBox shows a message box.
	aboutBox = func(ctx context.Context, title, message string) {
		_, _ = runtime.MessageDialog(ctx, runtime.MessageDialogOptions{Type: runtime.InfoDialog, Title: title, Message: message})
	}
)
