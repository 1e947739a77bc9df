package gitrepo

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// ErrIndexLocked means another git process holds .git/index.lock.
var ErrIndexLocked = errors.New("the git index is locked by another git process (.git/index.lock exists)")

// writeIndex replaces .git/index the way git does: the new index is written to
// index.lock (created exclusively, so a running git command and this package exclude
// each other), synced, and renamed over the index. go-git's own SetIndex truncates the
// index in place, which a crash or a concurrent git reader would see half written.
func (r *Repo) writeIndex(idx *index.Index) (err error) {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		return r.repo.Storer.SetIndex(idx) // a linked worktree: let go-git find the index
	}
	lock := filepath.Join(gitDir, "index.lock")
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return ErrIndexLocked
	}
	if err != nil {
		return fmt.Errorf("lock index: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(lock)
		}
	}()
	bw := bufio.NewWriter(f)
	if err := index.NewEncoder(bw).Encode(idx); err != nil {
		return fmt.Errorf("encode index: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync index: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	if err := os.Rename(lock, filepath.Join(gitDir, "index")); err != nil {
		return fmt.Errorf("replace index: %w", err)
	}
	return nil
}
