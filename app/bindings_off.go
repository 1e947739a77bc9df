//go:build desktop && !bindings

package app

// generatingBindings is true in the build `wails build` runs to generate bindings.
const generatingBindings = false
