//go:build (desktop || bindings) && !linux

package app

// forwardToRunning is done by Wails itself on macOS and Windows (when the app starts,
// a second instance hands its arguments over and exits).
func forwardToRunning(string, []string) (bool, error) { return false, nil }
