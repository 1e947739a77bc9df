package catalog_test

import (
	"os"
	"testing"

	"github.com/memotree/memotree/backend/internal/vaulttest"
)

// TestMain gives the tests a git configuration of their own (see vaulttest.RunIsolatedGit).
func TestMain(m *testing.M) { os.Exit(vaulttest.RunIsolatedGit(m)) }
