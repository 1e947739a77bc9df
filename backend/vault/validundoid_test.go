package vault

import (
	"testing"

	"github.com/memotree/memotree/backend/internal/matchtest"
)

// TestValidUndoID: the hand-written check accepts exactly what the regexp it replaced matches.
func TestValidUndoID(t *testing.T) {
	matchtest.AgreesWithRegexp(t, `^[A-Za-z0-9_-]{1,64}$`, validUndoID)
}
