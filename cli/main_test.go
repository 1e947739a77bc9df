package cli

import (
	"os"
	"testing"
)

// TestMain keeps the caches of the vaults these tests open in a folder of the run's
// own: serve and mcp keep those of a vault without .memotree in the user's cache
// folder (workspace.Options.OutsideCaches), which the tests' temporary vaults would
// otherwise leave behind in the person's. It removes the binary headlessBinary built.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "memotree-cli-cache-")
	if err == nil {
		os.Setenv("XDG_CACHE_HOME", dir)
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
