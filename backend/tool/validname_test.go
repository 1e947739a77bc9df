package tool

import (
	"testing"

	"github.com/memotree/memotree/backend/internal/matchtest"
)

// TestValidName: the hand-written check accepts exactly what the regexp it replaced matches.
func TestValidName(t *testing.T) {
	matchtest.AgreesWithRegexp(t, `^[a-z][a-z0-9_]{0,63}$`, validName)
}
