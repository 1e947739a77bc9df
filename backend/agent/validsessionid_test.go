package agent

import (
	"testing"

	"github.com/memotree/memotree/backend/internal/matchtest"
)

// TestValidSessionID: the hand-written check accepts exactly what the regexp it replaced matches.
func TestValidSessionID(t *testing.T) {
	matchtest.AgreesWithRegexp(t, `^[A-Za-z0-9_-]{1,80}$`, validSessionID)
}
