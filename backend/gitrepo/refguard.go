package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
)

// Every update of a reference (updateRef) runs under the vault lock and is recorded
// first in an owner file: the reference's name and the commit it held. The record is
// removed once the update is done or has failed. A record found under the lock means
// a MemoTree process died while updating that reference:
//
//   - if it died holding <ref>.lock (created just after the record, within
//     staleWindow), the lock is its own, and is removed: git, like MemoTree, would
//     otherwise refuse every later update of that reference. The reference itself
//     holds its old value (the lock was never renamed over it) or its new one.
//   - a reference that no longer reads as a commit is put back to the recorded one:
//     an older MemoTree moved branches through go-git, which rewrites the file in
//     place (truncated, then written), and a kill in between left the branch empty.
//
// A lock with no record, or created long before or after it, is a git command's and
// is left alone.

// refOwnerName is the owner file of a reference update, in the working tree's git
// folder.
const refOwnerName = "MEMOTREE_REF_UPDATE"

// recordRefUpdate repairs what an interrupted update left (see above), then records
// the update of the reference name at p; done removes the record. It must be called
// under the vault lock.
func (r *Repo) recordRefUpdate(p refPlace, name plumbing.ReferenceName) (done func(), err error) {
	r.repairRef(p.gitDir)
	old := "none"
	if ref, err := r.refs.Storage.Reference(name); err == nil && ref.Type() == plumbing.HashReference {
		old = ref.Hash().String()
	}
	owner := filepath.Join(p.gitDir, refOwnerName)
	if err := writeSmall(owner, []byte(name.String()+" "+old+"\n")); err != nil {
		return nil, fmt.Errorf("record the update of %s: %w", name, err)
	}
	return func() { _ = os.Remove(owner) }, nil
}

// repairRef mends what a MemoTree process killed while updating a reference left (see
// above). It must be called under the vault lock.
func (r *Repo) repairRef(gitDir string) {
	owner := filepath.Join(gitDir, refOwnerName)
	ost, err := os.Stat(owner)
	if err != nil {
		return // no update was interrupted
	}
	b, err := regular.ReadPath(owner)
	if err != nil {
		return
	}
	s, old, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	name := plumbing.ReferenceName(s)
	p, known := r.refPlace(name)
	if !ok || name.Validate() != nil || (name != plumbing.HEAD && !strings.HasPrefix(s, "refs/")) || !known {
		_ = os.Remove(owner) // not ours to act on
		return
	}
	lock := p.file + ".lock"
	if lst, err := os.Stat(lock); err == nil {
		if d := lst.ModTime().Sub(ost.ModTime()); d >= -staleWindow && d <= staleWindow {
			_ = os.Remove(lock) // the killed process's own
		}
	}
	cur, err := regular.ReadPath(p.file)
	if err == nil && plumbing.IsHash(strings.TrimSpace(string(cur))) || err == nil && strings.HasPrefix(string(cur), "ref: ") {
		_ = os.Remove(owner) // the reference reads: the update happened or never began
		return
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
	if old == "none" {
		_ = os.Remove(p.file) // an unborn branch stays unborn
	} else if !plumbing.IsHash(old) || putBackRef(p.file, old) != nil {
		return
	}
	_ = os.Remove(owner)
}

// putBackRef writes hash to the reference file as git writes it (through file.lock,
// renamed over it), for repairRef.
func putBackRef(file, hash string) error {
	lock := file + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := syncfile.Finish(f, []byte(hash+"\n"), 0, false); err != nil {
		os.Remove(lock)
		return err
	}
	if err := os.Rename(lock, file); err != nil {
		os.Remove(lock)
		return err
	}
	return nil
}

// repairInterruptedCommit mends, under the vault lock, what a MemoTree process killed
// while updating a reference left (see above). Open calls it; it does nothing unless
// it finds the record of such an update.
func (r *Repo) repairInterruptedCommit(ctx context.Context) error {
	gitDir := r.gitDir()
	if _, err := os.Stat(filepath.Join(gitDir, refOwnerName)); err != nil {
		return nil
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	r.repairRef(gitDir)
	return nil
}
