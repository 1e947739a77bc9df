package vault

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/vpath"
)

// undoPrefix and undoSuffix frame the name of an undo journal inside .memotree.
const (
	undoPrefix = "undo-"
	undoSuffix = ".log"
)

// validUndoID reports whether id is 1 to 64 ASCII letters, digits, '_' or '-'
// (checked by hand: a regular expression compiled at start-up costs every process).
func validUndoID(id string) bool {
	if len(id) < 1 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Undo is the undo journal of one change set (a Starlark script) that may span several
// vaults. Put it in the context of the change set's writes with WithUndo: before every
// write of the change set, under the vault lock, Write, Apply, RemoveWith and
// RenameWith append to .memotree/undo-<id>.log, and sync, the path's content before
// the change set first wrote it (its pre-image, or its absence) and the hash of what
// this write is about to leave there (its post-image); a folder, and a symbolic link
// removed or moved (not written through), cannot be recorded and are refused.
// Rollback restores every recorded path in one crash-safe batch, but only where the
// file is still the pre-image or one of the post-images: a file someone else changed
// since is kept and reported. Commit forgets the journal.
//
// While the change set runs, the journal is held by an flock, so that Recover in
// another process (or another Vault on the same folder) leaves a live change set alone;
// a journal whose owner died (a crash, a SIGKILL) is rolled back, with the same check,
// by the next process that takes the vault lock (see Lock) or watches the vault (see
// RecoverStale).
//
// An Undo is safe for concurrent use; it must end with Commit or Rollback, once. Its
// mutex is taken after a vault's lock, never before (see the package documentation).
type Undo struct {
	id string

	mu    sync.Mutex
	logs  map[*Vault]*undoLog
	order []*Vault
	done  bool
}

// undoLog is the journal of one Undo in one vault.
type undoLog struct {
	f    *os.File
	name string
	// unhold forgets the journal in the process's record of live files (see live);
	// close calls it before it closes f.
	unhold func()
	seen   map[vpath.Path]bool
	// torn is set once an append failed part way and the half record could not be
	// cut off: the journal ends in a torn record, and the change set writes no more
	// (a record appended after it would be glued to it).
	torn error
	journal
}

// journal is what an undo journal records, in memory or read back after a crash.
type journal struct {
	pre []Preimage
	// posts are the hashes of everything the change set wrote, or was about to write,
	// at each path (noFile for a removal): a rollback puts back only a file that is one
	// of them, and leaves alone a file someone else changed since.
	posts map[vpath.Path][]Hash
	// above is, for a path that did not exist, the deepest folder above it that did:
	// a rollback that removes the path removes the empty folders below that one,
	// which the change set made.
	above map[vpath.Path]vpath.Path
}

func newJournal() journal {
	return journal{posts: map[vpath.Path][]Hash{}, above: map[vpath.Path]vpath.Path{}}
}

// noFile is the post-image of a path the change set removed or renamed away.
const noFile Hash = "none"

// Preimage is the state of a path before a change set first wrote it.
type Preimage struct {
	// Path is the vault path written (symbolic links followed).
	Path vpath.Path `json:"path"`
	// Existed says a file was there; Data is then its content, and Mode its permission
	// bits (0 in a journal of an older MemoTree: a rollback then uses 0644).
	Existed bool        `json:"existed"`
	Data    []byte      `json:"data,omitempty"`
	Mode    fs.FileMode `json:"mode,omitempty"`
}

// undoRecord is one line of an undo journal. The first record of a path carries its
// pre-image (and, if no file was there, the deepest folder above it that existed,
// "." for the vault's); each record carries the post-image of the write it precedes.
type undoRecord struct {
	Path    vpath.Path `json:"path"`
	Existed bool       `json:"existed,omitempty"`
	Data    []byte     `json:"data,omitempty"`
	Mode    uint32     `json:"mode,omitempty"` // the permission bits of a pre-image
	Above   string     `json:"above,omitempty"`
	Post    Hash       `json:"post,omitempty"`
}

// NewUndo returns the undo journal of a change set named id (letters, digits, '-'
// and '_'; it names the journal files).
func NewUndo(id string) (*Undo, error) {
	if !validUndoID(id) {
		return nil, fmt.Errorf("undo journal %q: the id must be 1-64 letters, digits, '-' or '_'", id)
	}
	return &Undo{id: id, logs: map[*Vault]*undoLog{}}, nil
}

type undoKey struct{}

// WithUndo returns a context whose writes are recorded in u.
func WithUndo(ctx context.Context, u *Undo) context.Context {
	return context.WithValue(ctx, undoKey{}, u)
}

func undoFrom(ctx context.Context) *Undo {
	u, _ := ctx.Value(undoKey{}).(*Undo)
	return u
}

// Touched is what a change set did to one vault so far: the pre-image of every path it
// wrote, in the order first written.
type Touched struct {
	Vault *Vault
	Pre   []Preimage
}

// Touched returns, per vault in the order first written, the pre-images recorded.
func (u *Undo) Touched() []Touched {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]Touched, 0, len(u.order))
	for _, v := range u.order {
		out = append(out, Touched{Vault: v, Pre: slices.Clone(u.logs[v].pre)})
	}
	return out
}

// saveUndo records, for the Undo in ctx if any, the pre-images of paths (resolved
// targets) not recorded yet and the post-images (posts[i], noFile for a removal) that
// the write about to happen leaves at them, and syncs the journal before it returns:
// a crash during the write finds both. The caller holds v's lock.
func (v *Vault) saveUndo(ctx context.Context, paths []vpath.Path, posts []Hash) error {
	u := undoFrom(ctx)
	if u == nil {
		return nil
	}
	if v.beforeUndoRecord != nil {
		v.beforeUndoRecord()
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done {
		return fmt.Errorf("undo journal %s: the change set has ended", u.id)
	}
	lg, err := u.logFor(v)
	if err != nil {
		return err
	}
	if lg.torn != nil {
		return fmt.Errorf("undo journal: %w", lg.torn)
	}
	var buf bytes.Buffer
	var fresh []Preimage
	var freshPost []int
	for i, p := range paths {
		rec := undoRecord{Path: p, Post: posts[i]}
		if !lg.seen[p] {
			b, mode, err := v.readPre(p)
			switch {
			case err == nil:
				rec.Existed, rec.Data, rec.Mode = true, b, uint32(mode)
			case errors.Is(err, fs.ErrNotExist):
				rec.Above = "."
				if a := v.existingAbove(p); a != "" {
					rec.Above = string(a)
				}
			default:
				return fmt.Errorf("undo journal: read %s: %w", p, mapErr(err))
			}
			fresh = append(fresh, Preimage{Path: p, Existed: rec.Existed, Data: rec.Data, Mode: fs.FileMode(rec.Mode)})
		} else if slices.Contains(lg.posts[p], posts[i]) {
			continue // this content is recorded already
		}
		line, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("undo journal: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		freshPost = append(freshPost, i)
	}
	if buf.Len() == 0 {
		return nil
	}
	if err := lg.append(buf.Bytes()); err != nil {
		return fmt.Errorf("undo journal: %w", err)
	}
	for _, pre := range fresh {
		lg.seen[pre.Path] = true
		lg.pre = append(lg.pre, pre)
	}
	lg.noteAbove(buf.Bytes())
	for _, i := range freshPost {
		lg.posts[paths[i]] = append(lg.posts[paths[i]], posts[i])
	}
	return nil
}

// append writes records to the journal and syncs it. A failed write (a full disk) is
// cut off again, so that the journal never holds a torn record in its middle; if the
// cut fails too, the journal is marked torn and takes no more records (see torn): its
// torn end is ignored by a recovery, which rolls back what the records before it name.
func (lg *undoLog) append(b []byte) error {
	st, err := lg.f.Stat()
	if err != nil {
		return err
	}
	err = fsfault.Check("write", lg.name)
	if err == nil {
		_, err = lg.f.Write(b)
	}
	if err == nil {
		if err = fsfault.Check("sync", lg.name); err == nil {
			err = lg.f.Sync()
		}
	}
	if err != nil {
		terr := fsfault.Check("truncate", lg.name)
		if terr == nil {
			terr = lg.f.Truncate(st.Size())
		}
		if terr != nil {
			lg.torn = fmt.Errorf("%s ends in a record torn by a failed write that could not be cut off (%w): the change set can make no more writes, and is rolled back when it ends", lg.name, terr)
		}
	}
	return err
}

// logFor opens (creating and locking) the journal of u in v; the caller holds u.mu
// and v's lock. The journal is created under a temporary name, locked, synced and only
// then renamed into place, so that no one ever finds it unlocked while its change set
// lives.
func (u *Undo) logFor(v *Vault) (*undoLog, error) {
	if lg := u.logs[v]; lg != nil {
		return lg, nil
	}
	if err := v.ensureInternal(); err != nil {
		return nil, fmt.Errorf("undo journal: %w", err)
	}
	name := internalDir + "/" + undoPrefix + u.id + undoSuffix
	if _, err := v.root.Lstat(name); err == nil {
		return nil, fmt.Errorf("undo journal: %s exists already", name)
	}
	tmp := internalDir + "/" + TempPrefix + rand.Text()
	f, err := createFile(v.root, tmp)
	if err != nil {
		return nil, fmt.Errorf("undo journal: create %s: %w", name, mapErr(err))
	}
	unhold := holdLive(f)
	fail := func(err error) (*undoLog, error) {
		_ = v.root.Remove(tmp)
		unhold()
		f.Close()
		return nil, fmt.Errorf("undo journal: create %s: %w", name, err)
	}
	if ok, err := tryLockFile(f); err != nil || !ok {
		return fail(fmt.Errorf("lock: %v", err))
	}
	if err := fsfault.Check("rename", name); err != nil {
		return fail(err)
	}
	if err := v.root.Rename(tmp, name); err != nil {
		return fail(mapErr(err))
	}
	if err := v.syncDir(internalDir); err != nil {
		_ = v.root.Remove(name)
		unhold()
		f.Close()
		return nil, fmt.Errorf("undo journal: %w", err)
	}
	lg := &undoLog{f: f, name: name, unhold: unhold, seen: map[vpath.Path]bool{}, journal: newJournal()}
	u.logs[v] = lg
	u.order = append(u.order, v)
	return lg, nil
}

// readPre returns the content and permission bits of the regular file at p.
func (v *Vault) readPre(p vpath.Path) ([]byte, fs.FileMode, error) {
	f, st, err := openRegular(v.root, osName(p))
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return b, st.Mode().Perm(), err
}

// existingAbove returns the deepest folder above p that exists ("" for the vault's).
func (v *Vault) existingAbove(p vpath.Path) vpath.Path {
	for d := p.Dir(); d != ""; d = d.Dir() {
		if st, err := v.root.Stat(osName(d)); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}

// noteAbove records in memory the folders named by the records in b (see journal).
func (lg *undoLog) noteAbove(b []byte) {
	for _, line := range bytes.Split(b, []byte("\n")) {
		var rec undoRecord
		if json.Unmarshal(line, &rec) == nil && rec.Above != "" {
			lg.above[rec.Path] = aboveOf(rec.Above)
		}
	}
}

func aboveOf(s string) vpath.Path {
	if s == "." {
		return ""
	}
	return vpath.Path(s)
}

// createFile creates the new file name of r for writing.
func createFile(r *os.Root, name string) (*os.File, error) {
	if err := fsfault.Check("create", name); err != nil {
		return nil, err
	}
	return r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
}

// Commit ends the change set keeping its writes: the journals are removed (each while
// still locked, so that no one rolls back a journal of a change set that committed).
func (u *Undo) Commit() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.done = true
	var errs []error
	for _, v := range u.order {
		if err := u.logs[v].remove(v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// remove deletes the journal and makes that durable, then releases it: a power cut
// that brought the journal back would have the next open roll back a change set that
// ended. If the folder's sync fails, the journal (unlinked, still open) is emptied and
// synced, so that it comes back empty if at all; the change set has ended either way
// (as a write whose folder's sync failed is made). A journal that cannot be removed is
// made harmless instead (moved to a temporary name, or emptied).
func (lg *undoLog) remove(v *Vault) error {
	defer lg.close()
	err := lg.unlink(v)
	if err == nil {
		if v.syncDir(internalDir) != nil {
			_ = lg.empty()
		}
		return nil
	}
	if lg.empty() == nil {
		return nil // an empty journal: nothing to roll back
	}
	return fmt.Errorf("undo journal: remove %s: %w", lg.name, err)
}

// unlink removes the journal's name, trying twice, else moves it to a temporary name
// (an orphaned temporary file, removed later: see RemoveOrphanTemps).
func (lg *undoLog) unlink(v *Vault) error {
	var err error
	for range 2 {
		if err = fsfault.Check("remove", lg.name); err == nil {
			err = v.root.Remove(lg.name)
		}
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	tmp := internalDir + "/" + TempPrefix + rand.Text()
	if fsfault.Check("rename", tmp) == nil && v.root.Rename(lg.name, tmp) == nil {
		return nil
	}
	return err
}

// close lets go of the journal: this process no longer counts it as live (see live),
// and its lock goes with the file.
func (lg *undoLog) close() {
	lg.unhold()
	lg.f.Close()
}

// empty truncates the journal to nothing and syncs it.
func (lg *undoLog) empty() error {
	if err := fsfault.Check("truncate", lg.name); err != nil {
		return err
	}
	if err := lg.f.Truncate(0); err != nil {
		return err
	}
	return lg.f.Sync()
}

// Restored is what a rollback put back in one vault.
type Restored struct {
	Vault *Vault
	Paths []vpath.Path
	// Kept are the paths left as they are because someone else changed them after the
	// change set wrote them: their edit wins, and the caller should say so.
	Kept []vpath.Path
}

// Rollback ends the change set undoing its writes: in each vault, under its lock, every
// path whose content is still what the change set wrote is restored (rewritten, or
// removed if the change set created it; removals first, which frees space for the
// rest) in a batch made as Apply makes it, so a crash in the middle is finished by the
// next open; then the journal is removed. With actor set, the journey records one
// "rollback" entry per restored path. Folders the change set created stay, empty. A
// path someone else changed after the change set wrote it is kept (Restored.Kept). If
// a vault's rollback fails (a full disk), its journal stays and is released: the next
// process or write that takes the vault lock finishes the rollback.
//
// Rollback ends the change set under the Undo's mutex and lets go of it before it
// takes any vault's lock (the lock order is the vault's lock, then the Undo's mutex:
// see the package documentation). A write that recorded its pre-images before the end
// holds its vault's lock until it has landed, so the rollback, which waits for that
// lock, undoes it; a write that comes after finds the change set ended.
func (u *Undo) Rollback(ctx context.Context, actor string) ([]Restored, error) {
	u.mu.Lock()
	if u.done {
		u.mu.Unlock()
		return nil, fmt.Errorf("undo journal %s: the change set has ended", u.id)
	}
	u.done = true
	order := slices.Clone(u.order)
	logs := make([]*undoLog, len(order))
	for i, v := range order {
		logs[i] = u.logs[v]
	}
	u.mu.Unlock()
	var out []Restored
	var errs []error
	for i, v := range order {
		lg := logs[i]
		paths, kept, err := v.rollback(ctx, lg.journal, actor)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w (the undo journal %s stays: the rollback is finished once the vault can be written again)", err, lg.name))
			lg.close()
			continue
		}
		out = append(out, Restored{Vault: v, Paths: paths, Kept: kept})
		if err := lg.remove(v); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// rollback restores pre-images under v's lock and returns the paths it changed.
func (v *Vault) rollback(ctx context.Context, j journal, actor string) (paths, kept []vpath.Path, err error) {
	unlock, err := v.Lock(context.WithoutCancel(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("roll back: %w", err)
	}
	defer unlock()
	return v.rollbackLocked(j, actor)
}
