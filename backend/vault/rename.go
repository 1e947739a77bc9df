package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

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

// sameEntry reports whether dst, what an Lstat of to found, is the entry src at from
// itself under another spelling, so that a rename of from to to must go ahead where
// the target "exists": to differs from from only in case or Unicode form
// (portable.CaseOnly), both name one file (os.SameFile), and that file has no other
// name. On Windows' and macOS' file systems, which ignore case, an Lstat of note.md
// finds Note.md, and `Note.md` → `note.md` is a rename of the one entry. On Linux two
// such names are two entries: they can only be one file as hard links, and renaming
// one hard link onto another does nothing and reports success, so that stays refused.
func sameEntry(from, to vpath.Path, src, dst fs.FileInfo) bool {
	return portable.CaseOnly(string(from), string(to)) && os.SameFile(src, dst) && !hardLinked(src)
}

// sameEntryOf is sameEntry, or the stand-in a test gives for a file system that
// ignores case (caseIgnored).
func (v *Vault) sameEntryOf(from, to vpath.Path, src, dst fs.FileInfo) bool {
	if v.caseIgnored != nil {
		return v.caseIgnored(from, to, src, dst)
	}
	return sameEntry(from, to, src, dst)
}

// respelled reports whether the file at to, on disk, is the one at from under a
// spelling that differs only in case (sameEntryOf on their Lstats).
func (v *Vault) respelled(from, to vpath.Path) bool {
	if !portable.CaseOnly(string(from), string(to)) {
		return false
	}
	src, err := v.root.Lstat(osName(from))
	if err != nil {
		return false
	}
	dst, err := v.root.Lstat(osName(to))
	return err == nil && v.sameEntryOf(from, to, src, dst)
}
