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
	"path"
	"path/filepath"
	"runtime"

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
}

// Write replaces the content of the file at p with data, atomically, creating parent
// folders, and returns the new content's Hash. The mode of an existing file is kept;
// a new file gets 0644 (less the umask). A symbolic link at p is written through, to
// its target, when the target is inside the vault. Paths that are not content (see
// ErrOutside) are refused. With o.Actor set the write is recorded in the journey
// (entities: the path), failed or not, unless the lock could not be taken; if only
// that record fails, the file is written, the Hash is valid and the error says so.
func (v *Vault) Write(ctx context.Context, p vpath.Path, data []byte, o WriteOptions) (Hash, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	defer unlock()
	h, err := v.undoable(ctx, p)
	if err == nil {
		h, err = v.writeLocked(p, data, o)
	}
	if err == nil {
		v.savePostResolved(ctx, []vpath.Path{p}, []Hash{h})
	}
	if err != nil {
		err = fmt.Errorf("write %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "write"
	}
	jerr := v.journal(o, op, []string{string(p)}, writeArgs(len(data), o), err)
	switch {
	case err != nil:
		return "", err
	case jerr != nil:
		return h, fmt.Errorf("write %s: written, but %w", p, jerr)
	}
	return h, nil
}

// undoable records, for the Undo in ctx if any, the pre-images of the files at paths
// (symbolic links followed) before a Write, RemoveWith or RenameWith changes them; a
// folder cannot be recorded and is refused. The caller holds the lock. The Hash result
// is always empty (it keeps the callers' error flow short).
func (v *Vault) undoable(ctx context.Context, paths ...vpath.Path) (Hash, error) {
	if undoFrom(ctx) == nil {
		return "", nil
	}
	targets := make([]vpath.Path, 0, len(paths))
	for _, p := range paths {
		if err := checkContent(p); err != nil {
			return "", err
		}
		t, err := v.resolve(p)
		if err != nil {
			return "", err
		}
		if st, err := v.root.Stat(osName(t)); err == nil && st.IsDir() {
			return "", fmt.Errorf("%s is a folder, which a change set cannot undo", p)
		}
		targets = append(targets, t)
	}
	return "", v.saveUndo(ctx, targets)
}

// savePostResolved is savePost for paths that may be symbolic links (resolved the way
// undoable resolved them before the write).
func (v *Vault) savePostResolved(ctx context.Context, paths []vpath.Path, hashes []Hash) {
	if undoFrom(ctx) == nil {
		return
	}
	resolved := make([]vpath.Path, len(paths))
	for i, p := range paths {
		t, err := v.resolve(p)
		if err != nil {
			t = p
		}
		resolved[i] = t
	}
	v.savePost(ctx, resolved, hashes)
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
	target, err := v.resolve(p)
	if err != nil {
		return "", err
	}
	perm, exists := fs.FileMode(0o644), false
	st, err := v.root.Stat(osName(target))
	switch {
	case err == nil && st.IsDir():
		return "", fmt.Errorf("%w: a folder has this name", ErrExists)
	case err == nil:
		perm, exists = st.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return "", mapErr(err)
	}
	if o.CreateOnly && exists {
		return "", ErrExists
	}
	var check func() error
	if o.IfHash != "" {
		if err := v.checkHash(target, o.IfHash); err != nil {
			return "", err // refused before writing anything
		}
		// Checked again just before the rename: a program that does not take the lock
		// (another editor) may have saved the file while the new content was written
		// and synced, which takes milliseconds; the second check narrows the moment
		// in which its save could still be replaced unseen to the rename itself.
		check = func() error { return v.checkHash(target, o.IfHash) }
	}
	if err := v.atomicWrite(target, data, perm, exists, o.CreateOnly, check); err != nil {
		return "", err
	}
	h := HashOf(data)
	v.own.record(p, h)
	v.own.record(target, h)
	return h, nil
}

// checkHash fails with ErrConflict unless the file at p has content hash want.
func (v *Vault) checkHash(p vpath.Path, want Hash) error {
	dirs := v.newBatchDirs()
	defer dirs.close()
	return v.checkHashWith(dirs, p, want)
}

// checkHashWith is checkHash with a batch's open folders.
func (v *Vault) checkHashWith(dirs *batchDirs, p vpath.Path, want Hash) error {
	cur, err := dirs.readFile(p)
	if errors.Is(err, errSlowPath) {
		cur, err = v.root.ReadFile(osName(p))
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
// over target, then syncs the folder. With noClobber an existing target is never
// replaced (ErrExists). check, when set, runs just before the move, and its error
// abandons the write. The temporary file never survives a failure.
func (v *Vault) atomicWrite(target vpath.Path, data []byte, perm fs.FileMode, exists, noClobber bool, check func() error) error {
	dir := target.Dir()
	if err := v.root.MkdirAll(osName(dir), 0o755); err != nil {
		return fmt.Errorf("create folder %s: %w", dir, mapErr(err))
	}
	tmp := dir.Join(TempPrefix + rand.Text())
	f, err := v.root.OpenFile(osName(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("create temporary file: %w", mapErr(err))
	}
	placed := false
	defer func() {
		if !placed {
			_ = v.root.Remove(osName(tmp))
		}
	}()
	if err := writeSync(f, data, perm, exists); err != nil {
		return err
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
		err := v.root.Link(osName(tmp), osName(target))
		if errors.Is(err, fs.ErrExist) {
			return ErrExists
		}
		if err == nil { // linked without clobbering: drop the temporary name
			placed = true
			if err := v.root.Remove(osName(tmp)); err != nil {
				return fmt.Errorf("remove temporary file: %w", err)
			}
			return v.syncDir(dir)
		}
		// Hard links unsupported here: the check under the lock has to do.
	}
	if err := v.root.Rename(osName(tmp), osName(target)); err != nil {
		return fmt.Errorf("replace: %w", mapErr(err))
	}
	placed = true
	return v.syncDir(dir)
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
	f, err := v.root.Open(osName(dir))
	if err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, mapErr(err))
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// resolve follows symbolic links at the last element of p while they stay inside the
// vault and point at content, and returns the path finally named.
func (v *Vault) resolve(p vpath.Path) (vpath.Path, error) {
	dirs := v.newBatchDirs()
	defer dirs.close()
	p, _, err := v.resolveWith(dirs, p)
	return p, err
}

// absent is the mode resolveWith reports for a path where nothing is.
const absent = fs.ModeIrregular | fs.ModeTemporary

// resolveWith is resolve with a batch's open folders; it also returns the mode of
// what is at the path finally named (absent when nothing is).
func (v *Vault) resolveWith(dirs *batchDirs, p vpath.Path) (vpath.Path, fs.FileMode, error) {
	for range 16 {
		mode, err := dirs.lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, absent, nil
		}
		if err != nil {
			return "", 0, mapErr(err)
		}
		if mode&fs.ModeSymlink == 0 {
			return p, mode, nil
		}
		link, err := v.root.Readlink(osName(p))
		if err != nil {
			return "", 0, mapErr(err)
		}
		next, err := v.linkTarget(p, link)
		if err != nil {
			return "", 0, err
		}
		if err := checkContent(next); err != nil {
			return "", 0, fmt.Errorf("symbolic link %s: %w", p, err)
		}
		p = next
	}
	return "", 0, fmt.Errorf("%w: too many levels of symbolic links", ErrOutside)
}

// linkTarget returns the vault path a symbolic link at p with content link points to.
// Like os.Root, it refuses absolute links, even to a place inside the vault.
func (v *Vault) linkTarget(p vpath.Path, link string) (vpath.Path, error) {
	if filepath.IsAbs(link) || filepath.VolumeName(link) != "" {
		return "", fmt.Errorf("%w: symbolic link %s is absolute", ErrOutside, p)
	}
	next, err := vpath.Parse(path.Join(string(p.Dir()), filepath.ToSlash(link)))
	if err != nil {
		return "", fmt.Errorf("%w: symbolic link %s points outside the vault: %w", ErrOutside, p, err)
	}
	return next, nil
}

// Remove deletes the file (or empty folder) at p. With ifHash set it fails with
// ErrConflict unless the file's content has that Hash. A symbolic link is removed, not
// its target. Remove records nothing in the journey: RemoveWith does.
func (v *Vault) Remove(ctx context.Context, p vpath.Path, ifHash Hash) error {
	return v.RemoveWith(ctx, p, WriteOptions{IfHash: ifHash})
}

// RemoveWith is Remove with options: o.IfHash as Remove's ifHash, and with o.Actor set
// a journey entry (op o.Op, "remove" when empty). o.CreateOnly is ignored.
func (v *Vault) RemoveWith(ctx context.Context, p vpath.Path, o WriteOptions) error {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	defer unlock()
	_, err = v.undoable(ctx, p)
	if err == nil {
		err = v.removeLocked(p, o.IfHash)
	}
	if err == nil {
		v.savePostResolved(ctx, []vpath.Path{p}, []Hash{""})
	}
	if err != nil {
		err = fmt.Errorf("remove %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "remove"
	}
	if jerr := v.journal(o, op, []string{string(p)}, "", err); err == nil && jerr != nil {
		return fmt.Errorf("remove %s: removed, but %w", p, jerr)
	}
	return err
}

func (v *Vault) removeLocked(p vpath.Path, ifHash Hash) error {
	if err := checkContent(p); err != nil {
		return err
	}
	if ifHash != "" {
		if err := v.checkHash(p, ifHash); err != nil {
			return err
		}
	}
	if err := v.root.Remove(osName(p)); err != nil {
		return mapErr(err)
	}
	v.own.record(p, "")
	return v.syncDir(p.Dir())
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
// appended (op o.Op, "rename" when empty; entities from and to, and from as its From). o.CreateOnly is ignored: a rename never
// replaces its target.
func (v *Vault) RenameWith(ctx context.Context, from, to vpath.Path, o WriteOptions) error {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	defer unlock()
	_, err = v.undoable(ctx, from, to)
	if err == nil {
		err = v.renameLocked(from, to, o.IfHash)
	}
	if err == nil && undoFrom(ctx) != nil {
		h, _ := v.hashFile(to)
		v.savePostResolved(ctx, []vpath.Path{from, to}, []Hash{"", h})
	}
	if err != nil {
		err = fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	op := o.Op
	if op == "" {
		op = "rename"
	}
	if jerr := v.journalEntry(o, Entry{Op: op, Entities: []string{string(from), string(to)}, From: string(from)}, err); err == nil && jerr != nil {
		return fmt.Errorf("rename %s to %s: renamed, but %w", from, to, jerr)
	}
	return err
}

func (v *Vault) renameLocked(from, to vpath.Path, ifHash Hash) error {
	if err := checkContent(from); err != nil {
		return err
	}
	if err := checkContent(to); err != nil {
		return err
	}
	if ifHash != "" {
		if err := v.checkHash(from, ifHash); err != nil {
			return err
		}
	}
	src, err := v.root.Lstat(osName(from))
	if err != nil {
		return mapErr(err)
	}
	if dst, err := v.root.Lstat(osName(to)); err == nil && !os.SameFile(src, dst) {
		return fmt.Errorf("%w: %s", ErrExists, to)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return mapErr(err)
	}
	if err := v.root.MkdirAll(osName(to.Dir()), 0o755); err != nil {
		return fmt.Errorf("create folder %s: %w", to.Dir(), mapErr(err))
	}
	if err := v.root.Rename(osName(from), osName(to)); err != nil {
		return mapErr(err)
	}
	v.own.record(from, "")
	if src.Mode().IsRegular() {
		if h, err := v.hashFile(to); err == nil {
			v.own.record(to, h)
		}
	}
	if err := v.syncDir(from.Dir()); err != nil {
		return err
	}
	return v.syncDir(to.Dir())
}

// hashFile streams the file at p through SHA-256.
func (v *Vault) hashFile(p vpath.Path) (Hash, error) {
	f, err := v.root.Open(osName(p))
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
