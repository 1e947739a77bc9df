package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/memotree/memotree/backend/internal/fsfault"
)

// ErrIndexLocked means another git process holds .git/index.lock.
var ErrIndexLocked = errors.New("the git index is locked by another git process (.git/index.lock exists; " +
	"if no git command is running, a crashed one left it: remove .git/index.lock)")

// ownerName is the file in .git that says a MemoTree process is replacing the index:
// written before index.lock is created and removed after the index is renamed into
// place. Both survive a process killed in between (see writeIndex).
const ownerName = "MEMOTREE_INDEX_LOCK"

// writeIndex replaces .git/index the way git does: the new index is written to
// index.lock (created exclusively, so a running git command and this package exclude
// each other), synced, and renamed over the index. go-git's own SetIndex truncates the
// index in place, which a crash or a concurrent git reader would see half written.
//
// A MemoTree process killed while it holds index.lock would leave it behind, and git
// (like this package) then refuses every later change of the index. So the owner file
// is written first: the caller holds the vault's write lock, so an owner file found
// here belongs to a MemoTree process that died while replacing the index, and an
// index.lock created just after it (within staleWindow) is that process's: both are
// removed and the write goes on. An index.lock without a matching owner file belongs
// to a git command, and gives ErrIndexLocked.
func (r *Repo) writeIndex(idx *index.Index) (err error) {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		if err := r.repo.Storer.SetIndex(idx); err != nil { // a linked worktree: let go-git find the index
			return err
		}
		r.changed()
		return nil
	}
	return r.replaceIndex(gitDir, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := index.NewEncoder(bw).Encode(idx); err != nil {
			return fmt.Errorf("encode index: %w", err)
		}
		if err := fsfault.Check("write", filepath.Join(gitDir, "index.lock")); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		return nil
	})
}

// writeIndexRaw replaces .git/index with data, a whole index file, as writeIndex does.
func (r *Repo) writeIndexRaw(data []byte) error {
	gitDir := filepath.Join(r.dir, ".git")
	return r.replaceIndex(gitDir, func(w io.Writer) error {
		if err := fsfault.Check("write", filepath.Join(gitDir, "index.lock")); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		return nil
	})
}

// replaceIndex is writeIndex with what write writes to index.lock.
func (r *Repo) replaceIndex(gitDir string, write func(io.Writer) error) (err error) {
	defer func() {
		if err == nil {
			r.changed()
		}
	}()
	lock, owner := filepath.Join(gitDir, "index.lock"), filepath.Join(gitDir, ownerName)
	removeStaleIndexLock(lock, owner)
	if err := writeSmall(owner, fmt.Appendf(nil, "pid %d\n", os.Getpid())); err != nil {
		return fmt.Errorf("lock index: %w", err)
	}
	err = fsfault.Check("create", lock)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if errors.Is(err, os.ErrExist) {
		os.Remove(owner)
		return ErrIndexLocked
	}
	if err != nil {
		os.Remove(owner)
		return fmt.Errorf("lock index: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(lock)
		}
		os.Remove(owner)
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := fsfault.Check("sync", lock); err != nil {
		return fmt.Errorf("sync index: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync index: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	if r.beforeIndexRename != nil {
		r.beforeIndexRename()
	}
	if err := fsfault.Check("rename", lock); err != nil {
		return fmt.Errorf("replace index: %w", err)
	}
	if err := os.Rename(lock, filepath.Join(gitDir, "index")); err != nil {
		return fmt.Errorf("replace index: %w", err)
	}
	return nil
}

// writeSmall writes a small file of MemoTree's own in .git (an owner record). A write
// that fails (a full disk) removes what it made, so that no torn record is left.
func writeSmall(name string, data []byte) error {
	err := fsfault.Check("create", name)
	if err == nil {
		err = os.WriteFile(name, data, 0o644)
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}

// indexLockWait is how long a write of the index waits for a git command's
// index.lock to go before it gives ErrIndexLocked: a running command holds it for
// milliseconds, a crashed one forever.
const indexLockWait = 3 * time.Second

// writeIndexWaiting is write (writeIndex or writeIndexRaw), retried while a git command holds index.lock, for
// up to indexLockWait.
func (r *Repo) writeIndexWaiting(ctx context.Context, write func() error) error {
	deadline := time.Now().Add(indexLockWait)
	for {
		err := write()
		if !errors.Is(err, ErrIndexLocked) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// staleWindow is how long after its owner file a dead MemoTree process can have
// created index.lock: it writes the owner file, then creates the lock at once.
const staleWindow = 2 * time.Second

// removeStaleIndexLock removes an index.lock that a MemoTree process killed while
// replacing the index left behind, with its owner file (see writeIndex). It must be
// called under the vault's write lock.
func removeStaleIndexLock(lock, owner string) {
	ost, err := os.Stat(owner)
	if err != nil {
		return // no MemoTree process died replacing the index
	}
	if lst, err := os.Stat(lock); err == nil {
		d := lst.ModTime().Sub(ost.ModTime())
		if d < -staleWindow || d > staleWindow {
			return // a git command's lock, created later: not ours to remove
		}
		_ = os.Remove(lock)
	}
	_ = os.Remove(owner)
}
