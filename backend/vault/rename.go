package vault

import (
	"context"
	"errors"
	"fmt"

	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/vpath"
)

// rename moves from to to, replacing what is at to: every rename of content goes
// through it (a write's temporary file put in place, a batch's steps, a note moved).
//
// On Windows a file that another program holds open without sharing its deletion (an
// editor, a virus scanner, a search indexer, a sync client) cannot be replaced or
// moved for a while: the rename fails with a sharing violation. It is then retried
// for about two seconds (the vault's portable.Retry), and reported as ErrInUse,
// naming the note and what to do. Elsewhere it is one rename. The waits are not cut
// short by a context: a decided batch finishes its steps.
func (b *batchDirs) rename(from, to vpath.Path) error {
	var r portable.Renamer = dirsRenamer{b}
	if b.v.wrapRenamer != nil {
		r = b.v.wrapRenamer(r)
	}
	err := b.v.retry.Rename(context.Background(), r, string(from), string(to))
	if errors.Is(err, ErrInUse) {
		held := from
		if IsTempName(from.Base()) {
			held = to // a write's new content: the note it replaces is the one held
		}
		return fmt.Errorf("%s is open in another program; close it there and try again: %w", held, err)
	}
	return err
}

// dirsRenamer is a batchDirs as a portable.Renamer of vault paths.
type dirsRenamer struct{ b *batchDirs }

func (r dirsRenamer) Rename(from, to string) error {
	return r.b.renameOnce(vpath.Path(from), vpath.Path(to))
}
