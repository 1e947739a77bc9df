// Package vault is the vault on disk: every file access of MemoTree goes through it.
//
// A Vault wraps an os.Root opened on the vault folder, so no path can leave the
// folder, and symbolic links are followed only when they are relative and stay inside
// it. Paths are vpath.Path values.
//
// Symbolic links of the vault (a clone or an archive may carry any): a read follows a
// relative link that stays inside the vault, as Obsidian does. A write follows one only
// where it finally leads to content: every write resolves its path through one
// resolver (resolve.go), which follows the links one component at a time and judges
// the path they lead to, so that a link to .git (at any depth: a nested repository's
// too), .obsidian, .trash, .memotree, journey.yaml or a temporary file, or out of the
// vault, refuses the write (ErrOutside, naming the link) however the path was given.
// A write through a link to a content folder or note is deliberate: it lands in the
// folder or note the link leads to, and the link stays; a removal or a move acts on a
// link at the path's last component itself. The write is then made relative to
// folders opened without following any link (on Linux by descriptor, one component at
// a time: a folder replaced by a link after the judgement is not followed; elsewhere
// each folder is checked just before the call, which a program racing it can still
// defeat). .memotree itself, journey.yaml (nor a second name of it, a hard link) and
// the paths a crashed batch recorded in its intent are never links on the way of a
// write: such a one is refused. Content writes are atomic (temporary file, fsync,
// rename, fsync of the folder), serialised across processes by an exclusive lock on
// .memotree/lock, and can be made conditional (CreateOnly, or a compare-and-swap on
// the content Hash) or be computed from the file's content as it is, under the lock
// (Update, UpdateFile). A batch (Apply, ApplyAll) is all or nothing: its intent is
// recorded before its first rename. Every write made with an Actor is recorded in
// journey.yaml, the append-only log of operations at the vault root. A transaction (a
// Starlark script's: see Stage) holds its writes in memory and lands them as one
// such batch per vault when it ends.
//
// Failures leave the vault as it was. Whoever takes the lock first finishes a batch
// whose writer crashed after recording its intent (see Recover), so no write lands on
// half of a crashed batch; a process never takes its own temporary files in .memotree
// for a crashed writer's (see live). A write that fails on a full or failing disk
// removes what it made and names the disk (internal/fsfault); one that was made, but
// whose journey record or folder sync failed, succeeds with a notice in its context
// (internal/notice). Only regular files are read or written (ErrNotRegular), without
// ever blocking on a named pipe, and a note whose permissions allow no writing is left
// alone (ErrReadOnly).
//
// Concurrency: a *Vault is safe for concurrent use by many goroutines. Writes, removes,
// renames and journey appends take the vault lock, which excludes every other Vault on
// the same folder, in this process or another. Reads take no lock: they see either the
// old or the new content of a file, never a mix, because writes replace files by rename.
//
// Lock order: ApplyAll, the one function of this package that holds several vaults'
// locks, takes them in the order of their folders, so that two callers never wait for
// each other.
package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memotree/memotree/backend/portable"
	"github.com/memotree/memotree/backend/vpath"
)

// Errors returned by this package, wrapped with the operation and the path; check them
// with errors.Is.
var (
	// ErrNotFound means the file or folder does not exist.
	ErrNotFound = errors.New("not found")
	// ErrExists means a file that must not exist yet (CreateOnly, a rename target) exists.
	ErrExists = errors.New("already exists")
	// ErrConflict means the file changed since the version named by IfHash was read.
	ErrConflict = errors.New("changed since it was read")
	// ErrLocked means the vault lock could not be taken before the context was done.
	ErrLocked = errors.New("vault is locked by another writer")
	// ErrOutside means the path leaves the vault, goes through a symbolic link that
	// points outside it or, for a write, anywhere but to content, or names a file that
	// is not content (.git, .obsidian, .trash, .memotree, journey.yaml, temporary files).
	ErrOutside = errors.New("not a content path of the vault")
	// ErrPending means a batch failed after it was decided (its intent recorded): it
	// is completed at the next write or open of the vault, in this process or another.
	ErrPending = errors.New("the change is recorded and is completed at the next write or open of the vault")
	// ErrInUse means a note could not be replaced or moved because another program
	// holds it open (Windows' sharing violation), even after the rename was retried
	// for about two seconds (see portable.Retry). It is portable.ErrInUse.
	ErrInUse = portable.ErrInUse
)

// JourneyPath is the vault-relative path of the journey, the append-only operation log.
const JourneyPath vpath.Path = "journey.yaml"

// TempPrefix starts the name of every temporary file a write creates next to its
// target (see TempName). A file so named (IsTempName: the prefix and exactly 26
// characters of A–Z and 2–7) that outlives its write is an orphan of a crash; a
// person's own file that only starts with the prefix is never removed.
const TempPrefix = ".memotree-tmp-"

// internalDir is the app's own folder inside the vault.
const internalDir = ".memotree"

// Hash is the lowercase hexadecimal SHA-256 of a file's content.
type Hash string

// HashOf returns the Hash of b.
func HashOf(b []byte) Hash {
	s := sha256.Sum256(b)
	return Hash(hex.EncodeToString(s[:]))
}

// FileInfo describes a file or folder of the vault.
type FileInfo struct {
	Path    vpath.Path
	Size    int64
	ModTime time.Time
	IsDir   bool
}

// Vault is an open vault folder. Create it with Open and release it with Close.
//
// A Vault made by Stage is the same folder seen through a transaction: it shares the
// folder's state (its lock, caches, own writes), reads through the stage and writes
// into it (see Stage).
type Vault struct {
	*state
	// stage, when set, holds this Vault's writes until the stage is committed.
	stage *Stage
}

// state is what every Vault of one folder shares.
type state struct {
	dir  string
	root *os.Root
	sem  chan struct{} // in-process half of the vault lock
	own  ownWrites

	internMu sync.Mutex
	internOK bool   // .memotree exists
	cacheDir string // where caches live while .memotree does not (cache.go)

	// notes are the warnings not yet given to a caller (see warn).
	notes notices

	// noWaitOff is set once preadv2(RWF_NOWAIT) failed for want of support on the
	// vault's file system (kernels before 4.14, tmpfs and others): the fast reader
	// reads plainly from then on. It is the vault's, since another vault of the same
	// process may live on a file system that has it.
	noWaitOff atomic.Bool

	// orphans are the temporary files the walks found (see RemoveOrphanTemps).
	orphanMu sync.Mutex
	orphans  map[vpath.Path]bool

	// retry says how a rename that replaces or moves a file is retried while another
	// program holds it (on Windows; see rename.go).
	retry portable.Retry
	// wrapRenamer, when set (by tests), wraps the renamer of every such rename: a
	// test's fake fails as Windows does while another program holds the file.
	wrapRenamer func(portable.Renamer) portable.Renamer
	// caseIgnored, when set (by tests), decides instead of sameEntry whether a
	// rename's existing target is its source under another spelling: no file system
	// here ignores case, a test answers as one does.
	caseIgnored func(from, to vpath.Path, src, dst fs.FileInfo) bool

	// afterResolve, when set (by tests), runs when the resolver has judged a path a
	// write was given (resolve.go), before the write works on what it found.
	afterResolve func(p vpath.Path)
	// beforeRename, when set (by tests), runs after the temporary file is written and
	// synced and before it replaces the target; an error aborts the write.
	beforeRename func(tmp string) error
	// afterJourneyMapped, when set (by tests), runs once JourneyLatest has mapped the
	// journey, before it reads it.
	afterJourneyMapped func()
	// onLockWait, when set (by tests), runs when a Lock first finds the vault's lock
	// taken by another Vault or process.
	onLockWait func()
	// probeLock, when set (by tests), replaces tryLockFile where a remover of orphaned
	// temporary files asks whether a file's writer lives: a test makes it succeed
	// always, as flock emulated by per-process locks (NFS) does for the process that
	// holds the file.
	probeLock func(*os.File) (bool, error)
}

// Open opens the vault in dir, which must be an existing folder. The .memotree folder
// is created only when first needed.
func Open(dir string) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, mapErr(err))
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open vault %s: not a folder", dir)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	captureEscape(root)
	retry := portable.Retry{GOOS: runtime.GOOS}
	return &Vault{state: &state{dir: abs, root: root, sem: make(chan struct{}, 1), retry: retry}}, nil
}

// Close releases the vault. Pending operations must have returned.
func (v *Vault) Close() error {
	if v.stage != nil {
		return nil // the base's to close
	}
	if err := v.root.Close(); err != nil {
		return fmt.Errorf("close vault %s: %w", v.dir, err)
	}
	return nil
}

// Dir returns the absolute path of the vault folder.
func (v *Vault) Dir() string { return v.dir }

// ReadFile returns the content of the file at p.
func (v *Vault) ReadFile(p vpath.Path) ([]byte, error) {
	if v.stage != nil {
		return v.stage.readFile(p)
	}
	if err := checkPath(p); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	b, err := readRegular(v.root, osName(p))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, mapErr(err))
	}
	return b, nil
}

// Read returns the content of the file at p and its Hash, to pass later as
// WriteOptions.IfHash.
func (v *Vault) Read(p vpath.Path) ([]byte, Hash, error) {
	b, err := v.ReadFile(p)
	if err != nil {
		return nil, "", err
	}
	return b, HashOf(b), nil
}

// Stat describes the file or folder at p, following symbolic links inside the vault.
// The empty path is the vault folder itself.
func (v *Vault) Stat(p vpath.Path) (FileInfo, error) {
	if v.stage != nil {
		return v.stage.stat(p)
	}
	if err := checkPath(p); err != nil {
		return FileInfo{}, fmt.Errorf("stat %s: %w", p, err)
	}
	st, err := v.root.Stat(osName(p))
	if err != nil {
		return FileInfo{}, fmt.Errorf("stat %s: %w", p, mapErr(err))
	}
	return FileInfo{Path: p, Size: st.Size(), ModTime: st.ModTime(), IsDir: st.IsDir()}, nil
}

// checkPath validates p as a vault path (it may come from a cast rather than Parse).
func checkPath(p vpath.Path) error {
	if p == "" {
		return nil
	}
	q, err := vpath.Parse(string(p))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrOutside, err)
	}
	if q != p {
		return fmt.Errorf("%w: %q is not a clean vault path", ErrOutside, string(p))
	}
	return nil
}

// checkContent validates p as the target of a content write, remove or rename.
func checkContent(p vpath.Path) error {
	if err := checkPath(p); err != nil {
		return err
	}
	switch {
	case p == "":
		return fmt.Errorf("%w: the vault folder itself", ErrOutside)
	case p.Ignored():
		return fmt.Errorf("%w: %s is inside a folder reserved for git, Obsidian or MemoTree", ErrOutside, p)
	case p.InGitFolder():
		return fmt.Errorf("%w: %s is inside a folder git takes for a repository's own (.git)", ErrOutside, p)
	case p == JourneyPath:
		return fmt.Errorf("%w: %s is append-only, use AppendJourney", ErrOutside, p)
	case strings.HasPrefix(p.Base(), TempPrefix):
		return fmt.Errorf("%w: %s is a temporary file name", ErrOutside, p)
	}
	return nil
}

// osName converts p to a name for os.Root ("." for the root).
func osName(p vpath.Path) string {
	if p == "" {
		return "."
	}
	return filepath.FromSlash(string(p))
}

// errEscape is the error os.Root reports for a path or link leaving the root. The os
// package does not export it, so Open captures it once from a lexical check that does
// no I/O.
var (
	errEscape  error
	escapeOnce sync.Once
)

func captureEscape(r *os.Root) {
	escapeOnce.Do(func() {
		_, err := r.Lstat("/")
		var pe *fs.PathError
		if errors.As(err, &pe) {
			errEscape = pe.Err
		}
	})
}

// mapErr adds this package's sentinels to errors from os.Root, keeping the cause.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%w: %w", ErrExists, err)
	}
	if errEscape != nil && errors.Is(err, errEscape) {
		return fmt.Errorf("%w: %w", ErrOutside, err)
	}
	return err
}
