package vault

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

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
// vaults. Put it in the context of the change set's writes with WithUndo: before the
// first write of the change set to a path, under the vault lock, Write, Apply,
// RemoveWith and RenameWith append the path's content (or its absence) to
// .memotree/undo-<id>.log and sync it. Rollback restores every recorded path in one
// crash-safe batch; Commit forgets the journal. While the change set runs, the journal
// is held by an flock, so that Recover in another process (or another Vault on the
// same folder) leaves a live change set alone; a journal whose owner died (a crash, a
// SIGKILL) is rolled back by the next Recover.
//
// An Undo is safe for concurrent use; it must end with Commit or Rollback.
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
	pre  []Preimage
	seen map[vpath.Path]bool
	// post is the hash of what the change set last wrote at each path ("" for
	// removed), so that a rollback leaves alone a file someone else changed since.
	post map[vpath.Path]Hash
}

// Preimage is the state of a path before a change set first wrote it.
type Preimage struct {
	// Path is the vault path written (symbolic links followed).
	Path vpath.Path `json:"path"`
	// Existed says a file was there; Data is then its content.
	Existed bool   `json:"existed"`
	Data    []byte `json:"data,omitempty"`
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

// saveUndo records the pre-images of paths (resolved targets) for the Undo in ctx, if
// any, before they change. The caller holds v's lock.
func (v *Vault) saveUndo(ctx context.Context, paths []vpath.Path) error {
	u := undoFrom(ctx)
	if u == nil {
		return nil
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
	var buf bytes.Buffer
	var fresh []Preimage
	for _, p := range paths {
		if lg.seen[p] {
			continue
		}
		pre := Preimage{Path: p}
		b, err := v.root.ReadFile(osName(p))
		switch {
		case err == nil:
			pre.Existed, pre.Data = true, b
		case errors.Is(err, fs.ErrNotExist):
		default:
			return fmt.Errorf("undo journal: read %s: %w", p, mapErr(err))
		}
		line, err := json.Marshal(pre)
		if err != nil {
			return fmt.Errorf("undo journal: %w", err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		fresh = append(fresh, pre)
	}
	if len(fresh) == 0 {
		return nil
	}
	if _, err := lg.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("undo journal: %w", err)
	}
	if err := lg.f.Sync(); err != nil {
		return fmt.Errorf("undo journal: %w", err)
	}
	for _, pre := range fresh {
		lg.seen[pre.Path] = true
		lg.pre = append(lg.pre, pre)
	}
	return nil
}

// savePost notes, for the Undo in ctx if any, what the change set wrote at paths
// (hashes[i], "" for a removal). The caller holds v's lock.
func (v *Vault) savePost(ctx context.Context, paths []vpath.Path, hashes []Hash) {
	u := undoFrom(ctx)
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if lg := u.logs[v]; lg != nil {
		for i, p := range paths {
			lg.post[p] = hashes[i]
		}
	}
}

// logFor opens (creating and locking) the journal of u in v; the caller holds u.mu.
func (u *Undo) logFor(v *Vault) (*undoLog, error) {
	if lg := u.logs[v]; lg != nil {
		return lg, nil
	}
	if err := v.ensureInternal(); err != nil {
		return nil, fmt.Errorf("undo journal: %w", err)
	}
	name := internalDir + "/" + undoPrefix + u.id + undoSuffix
	f, err := v.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("undo journal: create %s: %w", name, mapErr(err))
	}
	if ok, err := tryLockFile(f); err != nil || !ok {
		f.Close()
		_ = v.root.Remove(name)
		return nil, fmt.Errorf("undo journal: lock %s: %v", name, err)
	}
	if err := v.syncDir(internalDir); err != nil {
		f.Close()
		_ = v.root.Remove(name)
		return nil, fmt.Errorf("undo journal: %w", err)
	}
	lg := &undoLog{f: f, name: name, seen: map[vpath.Path]bool{}, post: map[vpath.Path]Hash{}}
	u.logs[v] = lg
	u.order = append(u.order, v)
	return lg, nil
}

// Commit ends the change set keeping its writes: the journals are removed.
func (u *Undo) Commit() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.done = true
	var errs []error
	for _, v := range u.order {
		lg := u.logs[v]
		lg.f.Close()
		if err := v.root.Remove(lg.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("undo journal: remove %s: %w", lg.name, err))
		}
	}
	return errors.Join(errs...)
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
// path whose content differs from its pre-image is restored (rewritten, or removed if
// the change set created it) in one batch made as Apply makes it, so a crash in the
// middle is finished by the next open; then the journal is removed. With actor set,
// the journey records one "rollback" entry per restored path. Folders the change set
// created stay, empty. A write made to a touched path by someone else while the change
// set ran is kept instead (Restored.Kept); after a crash (Recover) there is no record
// of what the change set wrote, and every path is restored.
func (u *Undo) Rollback(ctx context.Context, actor string) ([]Restored, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.done = true
	var out []Restored
	var errs []error
	for _, v := range u.order {
		lg := u.logs[v]
		paths, kept, err := v.rollback(ctx, lg.pre, lg.post, actor)
		if err != nil {
			errs = append(errs, err) // keep the journal: the next open retries
			lg.f.Close()
			continue
		}
		out = append(out, Restored{Vault: v, Paths: paths, Kept: kept})
		lg.f.Close()
		if err := v.root.Remove(lg.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("undo journal: remove %s: %w", lg.name, err))
		}
	}
	return out, errors.Join(errs...)
}

// rollback restores pre-images under v's lock and returns the paths it changed.
func (v *Vault) rollback(ctx context.Context, pre []Preimage, post map[vpath.Path]Hash, actor string) (paths, kept []vpath.Path, err error) {
	unlock, err := v.Lock(context.WithoutCancel(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("roll back: %w", err)
	}
	defer unlock()
	return v.rollbackLocked(pre, post, actor)
}

// rollbackLocked restores pre; a path whose content is no longer what post says the
// change set wrote is kept (post nil: restore everything).
func (v *Vault) rollbackLocked(pre []Preimage, post map[vpath.Path]Hash, actor string) (paths, kept []vpath.Path, err error) {
	var changes []Change
	for _, p := range pre {
		if checkContent(p.Path) != nil {
			return nil, nil, fmt.Errorf("roll back: the undo journal names %s, which is not content: left as is", p.Path)
		}
		cur, err := v.root.ReadFile(osName(p.Path))
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("roll back %s: %w", p.Path, mapErr(err))
		}
		if want, known := post[p.Path]; known {
			now := Hash("")
			if exists {
				now = HashOf(cur)
			}
			if now != want {
				kept = append(kept, p.Path)
				continue
			}
		}
		switch {
		case p.Existed && exists && bytes.Equal(cur, p.Data), !p.Existed && !exists:
			continue // unchanged
		case p.Existed:
			changes = append(changes, Change{Path: p.Path, Data: p.Data})
		default:
			changes = append(changes, Change{Path: p.Path, Delete: true})
		}
	}
	if len(changes) == 0 {
		return nil, kept, nil
	}
	dirs := v.newBatchDirs()
	defer dirs.close()
	targets, err := v.checkBatch(dirs, changes)
	if err != nil {
		return nil, kept, fmt.Errorf("roll back: %w", err)
	}
	hashes, steps, itmp, err := v.stageBatch(dirs, changes, targets)
	if err != nil {
		return nil, kept, fmt.Errorf("roll back: %w", err)
	}
	if err := v.commitBatch(dirs, steps, itmp); err != nil {
		return nil, kept, fmt.Errorf("roll back: %w", err)
	}
	paths = make([]vpath.Path, len(changes))
	for i, c := range changes {
		v.own.record(c.Path, hashes[i])
		paths[i] = c.Path
	}
	if actor != "" {
		_ = v.journalBatch(changes, WriteOptions{Actor: actor, Op: "rollback"}) // best effort
	}
	return paths, kept, nil
}

// recoverUndo rolls back every undo journal in .memotree whose owner is gone (its
// flock is free) and returns the paths restored.
func (v *Vault) recoverUndo(ctx context.Context) ([]vpath.Path, error) {
	entries, err := fs.ReadDir(v.root.FS(), internalDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("recover: list %s: %w", internalDir, err)
	}
	var restored []vpath.Path
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, undoPrefix) || !strings.HasSuffix(n, undoSuffix) || e.IsDir() {
			continue
		}
		paths, err := v.recoverOne(ctx, internalDir+"/"+n)
		if err != nil {
			return restored, err
		}
		restored = append(restored, paths...)
	}
	return restored, nil
}

// recoverOne rolls back the journal name unless its owner still holds it.
func (v *Vault) recoverOne(ctx context.Context, name string) ([]vpath.Path, error) {
	f, err := v.root.OpenFile(name, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("recover: open %s: %w", name, mapErr(err))
	}
	defer f.Close()
	if ok, err := tryLockFile(f); err != nil || !ok {
		return nil, nil // a live change set, in this process or another
	}
	pre, err := readPreimages(f)
	if err != nil {
		return nil, fmt.Errorf("recover: %s: %w", name, err)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	paths, _, err := v.rollbackLocked(pre, nil, "recover")
	if err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	v.removeOrphanTemps(pre)
	if err := v.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return paths, fmt.Errorf("recover: remove %s: %w", name, err)
	}
	return paths, nil
}

// removeOrphanTemps removes the temporary files left in the folders of pre by a write
// that the crash interrupted. The caller holds the lock, under which every write
// creates and removes its temporary files, so any found now is an orphan.
func (v *Vault) removeOrphanTemps(pre []Preimage) {
	dirs := map[vpath.Path]bool{}
	for _, p := range pre {
		dirs[p.Path.Dir()] = true
	}
	for d := range dirs {
		entries, err := fs.ReadDir(v.root.FS(), osName(d))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type().IsRegular() && strings.HasPrefix(e.Name(), TempPrefix) {
				_ = v.root.Remove(osName(d.Join(e.Name())))
			}
		}
	}
}

// readPreimages parses a journal. A torn last line was never synced, so the write it
// announced never happened: it is ignored. The first record of a path wins.
func readPreimages(f *os.File) ([]Preimage, error) {
	var out []Preimage
	seen := map[vpath.Path]bool{}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil { // EOF: a line without its newline is torn
			return out, nil
		}
		var p Preimage
		if jerr := json.Unmarshal(line, &p); jerr != nil {
			return nil, fmt.Errorf("damaged record: %w", jerr)
		}
		if !seen[p.Path] {
			seen[p.Path] = true
			out = append(out, p)
		}
	}
}

// RemoveOrphanTemps removes the temporary files that writes interrupted by a crash
// left behind: those the walks so far found among the notes, and those in .memotree
// older than a minute (the app's own files there, such as the search index, are
// written without the vault lock). It takes the lock, under which every write of a
// note creates and removes its temporary file, so one that still exists then is an
// orphan. It returns how many it removed.
func (v *Vault) RemoveOrphanTemps(ctx context.Context) (int, error) {
	v.orphanMu.Lock()
	found := v.orphans
	v.orphans = nil
	v.orphanMu.Unlock()
	internal, _ := fs.ReadDir(v.root.FS(), internalDir)
	for _, e := range internal {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), TempPrefix) {
			if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < time.Minute {
				continue
			}
			if found == nil {
				found = map[vpath.Path]bool{}
			}
			found[vpath.Path(internalDir).Join(e.Name())] = true
		}
	}
	if len(found) == 0 {
		return 0, nil
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return 0, fmt.Errorf("remove orphaned temporary files: %w", err)
	}
	defer unlock()
	n := 0
	for p := range found {
		if err := v.root.Remove(osName(p)); err == nil {
			n++
		}
	}
	return n, nil
}
