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
)

// go-git rewrites a reference file in place (it opens it truncated, then writes the
// hash), so a process killed between the two leaves the branch empty and git refuses
// the repository. Before MemoTree moves the branch (a commit, a fast-forward pull) it
// records, under the vault lock, the branch's name and current commit in an owner
// file, and removes it once the branch has moved. An owner file found under the lock
// means a MemoTree process died while moving the branch: if the reference no longer
// reads as a commit, it is put back to the recorded one (the move did not happen,
// all or nothing); a reference that reads is left as it is.

// refOwnerName is the owner file of a branch move, in .git.
const refOwnerName = "MEMOTREE_REF_UPDATE"

// beginRefUpdate records the reference HEAD names and its commit before it moves;
// done removes the record. It must be called under the vault lock.
func (r *Repo) beginRefUpdate() (done func(), err error) {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		return func() {}, nil // a linked worktree: go-git's own writes only
	}
	r.repairRef(gitDir)
	name := plumbing.HEAD
	if h, err := r.repo.Storer.Reference(plumbing.HEAD); err == nil && h.Type() == plumbing.SymbolicReference {
		name = h.Target()
	}
	old := "none"
	if ref, err := r.repo.Reference(name, true); err == nil {
		old = ref.Hash().String()
	}
	owner := filepath.Join(gitDir, refOwnerName)
	if err := writeSmall(owner, []byte(name.String()+" "+old+"\n")); err != nil {
		return nil, fmt.Errorf("record the branch before it moves: %w", err)
	}
	return func() { _ = os.Remove(owner) }, nil
}

// repairRef puts back a reference that a MemoTree process killed while moving it left
// unreadable (see beginRefUpdate). It must be called under the vault lock.
func (r *Repo) repairRef(gitDir string) {
	owner := filepath.Join(gitDir, refOwnerName)
	b, err := regular.ReadPath(owner)
	if err != nil {
		return // no move was interrupted
	}
	name, old, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	ref := filepath.Join(gitDir, filepath.FromSlash(name))
	if !ok || (name != "HEAD" && !strings.HasPrefix(name, "refs/heads/")) || strings.Contains(name, "..") {
		_ = os.Remove(owner) // not ours to act on
		return
	}
	cur, err := regular.ReadPath(ref)
	if err == nil && plumbing.IsHash(strings.TrimSpace(string(cur))) || err == nil && strings.HasPrefix(string(cur), "ref: ") {
		_ = os.Remove(owner) // the reference reads: the move happened or never began
		return
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
	if old == "none" {
		_ = os.Remove(ref) // an unborn branch stays unborn
	} else if plumbing.IsHash(old) {
		tmp := ref + ".memotree-repair"
		if os.WriteFile(tmp, []byte(old+"\n"), 0o644) != nil || os.Rename(tmp, ref) != nil {
			_ = os.Remove(tmp)
			return
		}
	}
	_ = os.Remove(owner)
}

// repairInterruptedCommit puts back a branch that a MemoTree process killed while
// moving it left unreadable (see beginRefUpdate), under the vault lock. Open calls it;
// it does nothing unless it finds the record of such a move.
func (r *Repo) repairInterruptedCommit(ctx context.Context) error {
	gitDir := filepath.Join(r.dir, ".git")
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
