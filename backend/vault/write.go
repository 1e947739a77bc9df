package vault

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/internal/syncfile"
	"github.com/memotree/memotree/backend/vpath"
)

// WriteOptions qualifies a Write.
type WriteOptions struct {
	// CreateOnly makes the write fail with ErrExists if the file exists, even if
	// another process creates it at the same moment.
	CreateOnly bool
	// IfHash, when set, makes the write a compare-and-swap: it fails with ErrConflict
	// unless the file's current content has this Hash. "" writes unconditionally.
	IfHash Hash
	// Actor, when set, records the write in the journey under this actor ("user",
	// "agent", "mcp:<client>"...).
	Actor string
	// Op names the operation in the journey; "write" when empty.
	Op string
	// Turn and Session, when set, go into the journey entry: the writes of one turn
	// are one change set.
	Turn, Session string
	// Journey, when set on an Apply, are the journey entries to record for the whole
	// batch instead of one per change under Actor (a transaction's own: see
	// Stage.Batch).
	Journey []Entry
}

// Write replaces the content of the file at p with data, atomically, creating parent
// folders, and returns the new content's Hash. The mode of an existing file is kept;
// a new file gets 0644 (less the umask). Symbolic links on p's way, and at p, are
// written through when they lead to content (see the package documentation); one
// that leads anywhere else is refused (ErrOutside). Paths that are not content (see
// ErrOutside), that are not regular files (ErrNotRegular) or whose file is read-only
// (ErrReadOnly) are refused. With o.Actor set the write is recorded in the journey
// (entities: the path), failed or not (but not a failure of the disk, which would
// change the vault), unless the lock could not be taken; if only that record fails,
// the write stands and the failure is a notice of ctx (internal/notice).
//
// A failed write leaves the vault as it was: no temporary file, no folder it made.
func (v *Vault) Write(ctx context.Context, p vpath.Path, data []byte, o WriteOptions) (Hash, error) {
	if v.stage != nil {
		return v.stage.write(p, data, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	defer unlock()
	h, err := v.writeLocked(p, data, o)
	if err = v.settle(ctx, string(p), err); err != nil {
		err = fmt.Errorf("write %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "write"
	}
	v.journaled(ctx, v.journal(o, op, []string{string(p)}, writeArgs(len(data), o), err), string(p))
	if err != nil {
		return "", err
	}
	return h, nil
}

func writeArgs(n int, o WriteOptions) string {
	s := fmt.Sprintf("%d bytes", n)
	if o.CreateOnly {
		s += ", create only"
	}
	if o.IfHash != "" {
		s += fmt.Sprintf(", if hash %.12s", o.IfHash)
	}
	return s
}

func (v *Vault) writeLocked(p vpath.Path, data []byte, o WriteOptions) (Hash, error) {
	if err := checkContent(p); err != nil {
		return "", err
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	target, mode, err := v.resolveWith(dirs, p)
	if err != nil {
		return "", err
	}
	perm, exists := fs.FileMode(0o644), false
	switch {
	case mode == absent:
	case mode.IsDir():
		return "", fmt.Errorf("%w: a folder has this name", ErrExists)
	case !mode.IsRegular():
		return "", notRegular(mode)
	case o.CreateOnly:
		return "", ErrExists
	case readOnly(mode.Perm()):
		return "", ErrReadOnly
	default:
		perm, exists = mode.Perm(), true
	}
	var check func() error
	if o.IfHash != "" {
		if err := v.checkHashWith(dirs, target, o.IfHash); err != nil {
			return "", err // refused before writing anything
		}
		// Checked again just before the rename: a program that does not take the lock
		// (another editor) may have saved the file while the new content was written
		// and synced, which takes milliseconds; the second check narrows the moment
		// in which its save could still be replaced unseen to the rename itself.
		check = func() error { return v.checkHashWith(dirs, target, o.IfHash) }
	}
	err = v.atomicWrite(dirs, target, data, perm, exists, o.CreateOnly, check)
	if err != nil && !isMade(err) {
		return "", err
	}
	h := HashOf(data)
	v.own.record(p, h)
	v.own.record(target, h)
	return h, err
}

// checkHashWith fails with ErrConflict unless the file at p has content hash want.
func (v *Vault) checkHashWith(dirs *batchDirs, p vpath.Path, want Hash) error {
	cur, err := dirs.readFile(p)
	if errors.Is(err, errSlowPath) {
		cur, err = readRegular(v.root, osName(p))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: it no longer exists", ErrConflict)
	}
	if err != nil {
		return mapErr(err)
	}
	if got := HashOf(cur); got != want {
		return fmt.Errorf("%w: content hash is %.12s, not %.12s", ErrConflict, got, want)
	}
	return nil
}

// atomicWrite writes data to a temporary file next to target, syncs it and moves it
// over target, then syncs the folder, all through dirs (target is a resolved path:
// no symbolic link is followed on its way). With noClobber an existing target is never
// replaced (ErrExists). check, when set, runs just before the move, and its error
// abandons the write. Neither the temporary file nor a folder made for it survives a
// failure; once the move is done, what fails after it is reported as made (isMade).
func (v *Vault) atomicWrite(dirs *batchDirs, target vpath.Path, data []byte, perm fs.FileMode, exists, noClobber bool, check func() error) error {
	dir := target.Dir()
	madeDirs, err := v.makeDirs(dirs, dir)
	if err != nil {
		return err
	}
	tmp := dir.Join(TempPrefix + rand.Text())
	placed, created := false, false
	defer func() {
		if !placed {
			if created {
				_ = dirs.remove(tmp)
			}
			v.removeDirs(dirs, madeDirs)
		}
	}()
	err = fsfault.Check("create", string(tmp))
	var f *os.File
	if err == nil {
		f, err = dirs.openTemp(tmp, perm)
	}
	if err != nil {
		return fmt.Errorf("create temporary file: %w", mapErr(err))
	}
	created = true
	// A file in .memotree is written without the vault lock: its temporary file shows
	// that its writer lives (see RemoveOrphanTemps), to this process at once, to others
	// by its lock from when its content is written (a lock taken before would keep
	// the write out where locks are mandatory) until it is in place.
	internal := isInternal(target)
	if internal {
		defer holdLive(f)()
	}
	if err := writeSync(f, data, perm, exists); err != nil {
		return err
	}
	if internal {
		defer v.lockTemp(tmp)()
	}
	if v.beforeRename != nil {
		if err := v.beforeRename(string(tmp)); err != nil {
			return err
		}
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if noClobber {
		err := fsfault.Check("link", string(target))
		if err == nil {
			err = dirs.link(tmp, target)
		}
		if errors.Is(err, fs.ErrExist) {
			return ErrExists
		}
		if err == nil { // linked without clobbering: drop the temporary name
			placed = true
			if err := removeTemp(dirs, tmp); err != nil {
				return made(fmt.Errorf("remove temporary file: %w", err))
			}
			if err := dirs.syncDir(dir); err != nil {
				return made(err)
			}
			return nil
		}
		if fsfault.Is(err) {
			return fmt.Errorf("create %s: %w", target, err)
		}
		// Hard links unsupported here: the check under the lock has to do.
	}
	err = fsfault.Check("rename", string(target))
	if err == nil {
		err = dirs.rename(tmp, target)
	}
	if err != nil {
		return fmt.Errorf("replace: %w", mapErr(err))
	}
	placed = true
	if err := dirs.syncDir(dir); err != nil {
		return made(err)
	}
	return nil
}

// removeTemp removes a temporary file, trying twice.
func removeTemp(dirs *batchDirs, tmp vpath.Path) error {
	var err error
	for range 2 {
		if err = fsfault.Check("remove", string(tmp)); err == nil {
			err = dirs.remove(tmp)
		}
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return err
}

// writeSync writes, syncs and closes a temporary file; exact keeps the existing
// file's mode exactly, whatever the umask.
func writeSync(f *os.File, data []byte, perm fs.FileMode, exact bool) error {
	if err := syncfile.Finish(f, data, perm, exact); err != nil {
		return fmt.Errorf("write temporary file: %w", err)
	}
	return nil
}

// syncDir makes a rename or removal in dir durable.
func (v *Vault) syncDir(dir vpath.Path) error {
	if runtime.GOOS == "windows" {
		return nil // folders cannot be synced there; NTFS journals renames
	}
	if err := fsfault.Check("syncdir", string(dir)); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	f, err := regular.OpenDir(v.root, osName(dir))
	if err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, mapErr(err))
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// Remove deletes the file (or empty folder) at p. With ifHash set it fails with
// ErrConflict unless the file's content has that Hash. A symbolic link is removed, not
// its target. Remove records nothing in the journey: RemoveWith does.
func (v *Vault) Remove(ctx context.Context, p vpath.Path, ifHash Hash) error {
	return v.RemoveWith(ctx, p, WriteOptions{IfHash: ifHash})
}

// RemoveWith is Remove with options: o.IfHash as Remove's ifHash, and with o.Actor set
// a journey entry (op o.Op, "remove" when empty). o.CreateOnly is ignored. A read-only
// note is not removed (ErrReadOnly).
func (v *Vault) RemoveWith(ctx context.Context, p vpath.Path, o WriteOptions) error {
	if v.stage != nil {
		return v.stage.remove(p, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	defer unlock()
	err = v.removeLocked(p, o.IfHash)
	if err = v.settle(ctx, "the removal of "+string(p), err); err != nil {
		err = fmt.Errorf("remove %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "remove"
	}
	v.journaled(ctx, v.journal(o, op, []string{string(p)}, "", err), "the removal of "+string(p))
	return err
}

func (v *Vault) removeLocked(p vpath.Path, ifHash Hash) error {
	if err := checkContent(p); err != nil {
		return err
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	t, mode, err := v.resolveEntry(dirs, p)
	if err != nil {
		return err
	}
	if mode.IsRegular() && readOnly(mode.Perm()) {
		return ErrReadOnly
	}
	if ifHash != "" {
		if err := v.checkHashWith(dirs, t, ifHash); err != nil {
			return err
		}
	}
	err = fsfault.Check("remove", string(p))
	if err == nil {
		err = dirs.remove(t)
	}
	if err != nil {
		return mapErr(err)
	}
	v.own.record(p, "")
	v.own.record(t, "")
	if err := dirs.syncDir(t.Dir()); err != nil {
		return made(err)
	}
	return nil
}

// Rename moves the file or folder from to to, creating to's parent folders. It never
// replaces an existing target (ErrExists), except to change only the case of a name on
// a case-insensitive file system. Rename records nothing in the journey: RenameWith
// does.
func (v *Vault) Rename(ctx context.Context, from, to vpath.Path) error {
	return v.RenameWith(ctx, from, to, WriteOptions{})
}

// RenameWith is Rename with options: with o.IfHash set the source file must have that
// content Hash (ErrConflict otherwise), and with o.Actor set a journey entry is
// appended (op o.Op, "rename" when empty; entities from and to, and from as its From).
// o.CreateOnly is ignored: a rename never replaces its target. A read-only note is not
// moved (ErrReadOnly).
func (v *Vault) RenameWith(ctx context.Context, from, to vpath.Path, o WriteOptions) error {
	if v.stage != nil {
		return v.stage.rename(from, to, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	defer unlock()
	err = v.renameLocked(from, to, o.IfHash)
	subject := fmt.Sprintf("the move of %s to %s", from, to)
	if err = v.settle(ctx, subject, err); err != nil {
		err = fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	op := o.Op
	if op == "" {
		op = "rename"
	}
	v.journaled(ctx, v.journalEntry(o, Entry{Op: op, Entities: []string{string(from), string(to)}, From: string(from)}, err), subject)
	return err
}

func (v *Vault) renameLocked(from, to vpath.Path, ifHash Hash) error {
	if err := checkContent(from); err != nil {
		return err
	}
	if err := checkContent(to); err != nil {
		return err
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	rfrom, _, err := v.resolveEntry(dirs, from)
	if err != nil {
		return err
	}
	rto, toMode, err := v.resolveEntry(dirs, to)
	if err != nil {
		return err
	}
	if ifHash != "" {
		if err := v.checkHashWith(dirs, rfrom, ifHash); err != nil {
			return err
		}
	}
	src, err := v.root.Lstat(osName(rfrom))
	if err != nil {
		return mapErr(err)
	}
	if src.Mode().IsRegular() && readOnly(src.Mode().Perm()) {
		return ErrReadOnly
	}
	if toMode != absent {
		if dst, err := v.root.Lstat(osName(rto)); err == nil && !v.sameEntryOf(rfrom, rto, src, dst) {
			return fmt.Errorf("%w: %s", ErrExists, to)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return mapErr(err)
		}
	}
	madeDirs, err := v.makeDirs(dirs, rto.Dir())
	if err != nil {
		return err
	}
	err = fsfault.Check("rename", string(to))
	if err == nil {
		err = dirs.rename(rfrom, rto)
	}
	if err != nil {
		v.removeDirs(dirs, madeDirs)
		return mapErr(err)
	}
	v.own.record(from, "")
	v.own.record(rfrom, "")
	if src.Mode().IsRegular() {
		if h, err := v.hashFile(rto); err == nil {
			v.own.record(to, h)
			v.own.record(rto, h)
		}
	}
	err = dirs.syncDir(rfrom.Dir())
	if err == nil {
		err = dirs.syncDir(rto.Dir())
	}
	if err != nil {
		return made(err)
	}
	return nil
}

// hashFile streams the file at p through SHA-256.
func (v *Vault) hashFile(p vpath.Path) (Hash, error) {
	f, _, err := openRegular(v.root, osName(p))
	if err != nil {
		return "", mapErr(err)
	}
	defer f.Close()
	s := sha256.New()
	if _, err := io.Copy(s, f); err != nil {
		return "", err
	}
	return Hash(hex.EncodeToString(s.Sum(nil))), nil
}
