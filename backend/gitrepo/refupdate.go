package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
)

// References are written as git writes them. go-git's storage rewrites a reference
// file in place (it truncates it, then writes the hash), so a git command reading the
// branch at that moment (the person's terminal, Obsidian Git, a hook) finds it empty
// and fails ("bad HEAD", "unknown revision"), and a process killed in between leaves
// the branch empty. Git instead creates <ref>.lock exclusively, writes the new value
// there, and renames the lock over the reference: a reader sees the old value or the
// new one, and of two writers (a git command and MemoTree) the second finds the lock
// and fails rather than racing. updateRef does the same, and every reference MemoTree
// writes goes through it: the branch a commit or a fast-forward moves, a tag, and the
// remote-tracking branches and tags a fetch or push writes (go-git's own writes reach
// it through refStore).

// ErrRefLocked means a git command held a reference's lock (<ref>.lock) for longer
// than MemoTree waits: the reference was not changed.
var ErrRefLocked = errors.New("a git reference is locked by another git process")

// refLockWait is how long an update of a reference waits for a git command's lock on
// it to go: a running command holds it for milliseconds, a crashed one forever.
const refLockWait = indexLockWait

// errRefLockBusy is one failed try at a reference's lock; updateRef tries again.
var errRefLockBusy = errors.New("reference lock taken")

// refPlace is where a reference lives on disk: its file, and the git folder of this
// working tree, which holds the owner record of its update (see refguard.go).
type refPlace struct {
	file, gitDir string
}

// refPlace finds the file of the reference name as git lays it out: in .git, or for a
// linked worktree HEAD and refs/{bisect,worktree,rewritten}/ in its own git folder and
// every other reference in the common one (the folder its commondir file names).
// ok is false for a layout it does not know (updateRef then lets go-git write).
func (r *Repo) refPlace(name plumbing.ReferenceName) (_ refPlace, ok bool) {
	gitDir := r.gitDir()
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		return refPlace{}, false
	}
	common := gitDir
	if b, err := regular.ReadPath(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		if st, err := os.Stat(common); err != nil || !st.IsDir() {
			return refPlace{}, false
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return refPlace{}, false
	}
	s := name.String()
	dir := common
	if !strings.HasPrefix(s, "refs/") || strings.HasPrefix(s, "refs/bisect/") ||
		strings.HasPrefix(s, "refs/worktree/") || strings.HasPrefix(s, "refs/rewritten/") {
		dir = gitDir
	}
	return refPlace{file: filepath.Join(dir, filepath.FromSlash(s)), gitDir: gitDir}, true
}

// updateRefLocked is updateRef under the vault lock, which it takes for the moment of
// the update. go-git's writes of references during a fetch or push come through here
// (refStore), so a go-git call that writes a reference must never be made on r.repo
// while the vault lock is held: under it, make it on the repository underLock returns.
func (r *Repo) updateRefLocked(ctx context.Context, ref, old *plumbing.Reference) error {
	if r.w != nil {
		unlock, err := r.w.Lock(ctx)
		if err != nil {
			return fmt.Errorf("update %s: %w", ref.Name(), err)
		}
		defer unlock()
	}
	return r.updateRef(ctx, ref, old)
}

// updateRef points the reference ref names at ref's hash (or, for a symbolic
// reference, its target) as git does (see above), provided it holds old: nil accepts
// whatever it holds, a zero hash means it must not exist (a new tag, the first commit
// of a branch), any other hash that it must hold that one (read from its file, else
// packed-refs); otherwise it fails with storage.ErrReferenceHasChanged. A git
// command's lock on the reference is waited for up to refLockWait, then the update
// fails with ErrRefLocked naming the lock. Nothing is left behind on any failure: the
// lock is removed and the reference holds what it held. The caller holds the vault
// lock (or the repository was opened without a Writer, and nothing is recorded).
func (r *Repo) updateRef(ctx context.Context, ref, old *plumbing.Reference) (err error) {
	defer func() {
		if err == nil {
			r.changed()
		}
	}()
	name := ref.Name()
	if err := name.Validate(); err != nil || (name != plumbing.HEAD && !strings.HasPrefix(name.String(), "refs/")) {
		return fmt.Errorf("update %q: not a reference name git accepts", name)
	}
	content := ref.Hash().String() + "\n"
	if ref.Type() == plumbing.SymbolicReference {
		content = "ref: " + ref.Target().String() + "\n"
	}
	p, ok := r.refPlace(name)
	if !ok {
		return r.goGitUpdateRef(ref, old)
	}
	deadline := time.Now().Add(refLockWait)
	for {
		err := r.tryUpdateRef(p, name, content, old)
		if !errors.Is(err, errRefLockBusy) {
			return err
		}
		if time.Now().After(deadline) {
			lock := p.file + ".lock"
			return fmt.Errorf("update %s: %w: %s exists (a git command is updating it; if none is running, "+
				"a crashed one left it: remove %s, then try again)", name, ErrRefLocked, lock, lock)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("update %s: %w", name, context.Cause(ctx))
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// tryUpdateRef is one try of updateRef: errRefLockBusy when the lock is taken.
func (r *Repo) tryUpdateRef(p refPlace, name plumbing.ReferenceName, content string, old *plumbing.Reference) (err error) {
	if r.w != nil {
		done, rerr := r.recordRefUpdate(p, name)
		if rerr != nil {
			return rerr
		}
		defer done()
	}
	if err := fsfault.Check("mkdir", filepath.Dir(p.file)); err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	lock := p.file + ".lock"
	err = fsfault.Check("create", lock)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	}
	if errors.Is(err, os.ErrExist) {
		return errRefLockBusy
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			os.Remove(lock)
		}
	}()
	if err := syncfile.Finish(f, []byte(content), 0, false); err != nil {
		return fmt.Errorf("write %s: %w", lock, err)
	}
	if err := r.checkRefHolds(name, old); err != nil {
		return err
	}
	if r.beforeRefRename != nil {
		r.beforeRefRename()
	}
	if err := fsfault.Check("rename", lock); err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	if err := os.Rename(lock, p.file); err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	// The reference has moved: a folder that cannot be synced now (a full disk) only
	// leaves the rename to the file system's own schedule, as git leaves it.
	_ = syncFolder(filepath.Dir(p.file))
	return nil
}

// checkRefHolds fails with storage.ErrReferenceHasChanged unless the reference name
// holds old (see updateRef); it is read under the reference's lock.
func (r *Repo) checkRefHolds(name plumbing.ReferenceName, old *plumbing.Reference) error {
	if old == nil {
		return nil
	}
	cur, err := r.refs.Storage.Reference(name)
	switch {
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		if old.Hash().IsZero() {
			return nil
		}
		return fmt.Errorf("update %s: %w (it is gone)", name, storage.ErrReferenceHasChanged)
	case err != nil:
		return fmt.Errorf("update %s: read it: %w", name, err)
	case old.Hash().IsZero() || cur.Hash() != old.Hash():
		return fmt.Errorf("update %s: %w", name, storage.ErrReferenceHasChanged)
	}
	return nil
}

// goGitUpdateRef is updateRef through go-git's own write, in place, for a layout
// refPlace does not know.
func (r *Repo) goGitUpdateRef(ref, old *plumbing.Reference) error {
	if old != nil && old.Hash().IsZero() {
		if _, err := r.refs.Storage.Reference(ref.Name()); err == nil {
			return fmt.Errorf("update %s: %w", ref.Name(), storage.ErrReferenceHasChanged)
		}
		old = nil
	}
	if err := r.refs.Storage.CheckAndSetReference(ref, old); err != nil {
		return fmt.Errorf("update %s: %w", ref.Name(), err)
	}
	return nil
}

// syncFolder makes a rename in the folder dir durable, where folders can be synced
// (not on Windows, whose NTFS journals renames).
func syncFolder(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	if err := fsfault.Check("syncdir", dir); err != nil {
		return err
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// refStore is the repository's go-git storage with its writes of references made by
// updateRefLocked: those of a fetch (remote-tracking branches, tags) and of a push
// (the remote-tracking branch it moves) included. Reading is go-git's own.
type refStore struct {
	*filesystem.Storage
	r *Repo
	// held says that whoever writes through this store holds the vault lock already
	// (see Repo.underLock): its writes are made by updateRef.
	held bool
}

// underLock returns a go-git repository over r's storage for a call made under the
// vault lock that writes a reference (go-git's Worktree.Commit moves HEAD): r.repo
// would take the lock again for it, and wait for itself.
func (r *Repo) underLock() (*git.Repository, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("open the working tree: %w", err)
	}
	repo, err := git.Open(&refStore{Storage: r.refs.Storage, r: r, held: true}, wt.Filesystem)
	if err != nil {
		return nil, fmt.Errorf("open the repository: %w", err)
	}
	return repo, nil
}

// refVaultLockWait bounds how long a reference go-git writes waits for the vault lock
// (go-git passes refStore no context to bound it with).
const refVaultLockWait = time.Minute

// SetReference points a reference at a hash or another reference, as git would.
func (s *refStore) SetReference(ref *plumbing.Reference) error {
	return s.CheckAndSetReference(ref, nil)
}

// CheckAndSetReference is SetReference provided the reference holds old's hash (nil:
// whatever it holds).
func (s *refStore) CheckAndSetReference(ref, old *plumbing.Reference) error {
	ctx, cancel := context.WithTimeout(context.Background(), refVaultLockWait)
	defer cancel()
	if s.held {
		return s.r.updateRef(ctx, ref, old)
	}
	return s.r.updateRefLocked(ctx, ref, old)
}
