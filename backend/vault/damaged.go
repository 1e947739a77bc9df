package vault

import (
	"context"
	"errors"

	"github.com/memotree/memotree/backend/vpath"
)

// ErrDamagedJournal means the vault holds the undo journal of a crashed change set
// that no rollback can use. (Not yet told apart: a failing test's declaration.)
var ErrDamagedJournal = errors.New("the vault holds an undo journal of a crashed change set that cannot be rolled back")

// DamagedJournal is the undo journal of a crashed change set that cannot be rolled
// back.
type DamagedJournal struct {
	Name      string
	ChangeSet string
	Reason    string
	Paths     []vpath.Path
}

// DamagedJournals returns the damaged undo journals (none yet).
func (v *Vault) DamagedJournals() []DamagedJournal { return nil }

// SetAsideJournal sets a damaged journal aside (not yet).
func (v *Vault) SetAsideJournal(ctx context.Context, name string) (string, error) {
	return "", errors.New("not yet")
}
