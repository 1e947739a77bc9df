package vault

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// Change is one file operation of a batch given to Apply.
type Change struct {
	Path vpath.Path
	// Data is the new content (ignored when Delete is set).
	Data []byte
	// Delete removes the file instead of writing it.
	Delete bool
	// CreateOnly fails the whole batch with ErrExists if the file exists.
	CreateOnly bool
	// IfHash fails the whole batch with ErrConflict unless the file's content has this
	// Hash ("" means no check; for Delete, the file must then merely exist or not).
	IfHash Hash
}

// intentName is the roll-forward log of a batch in progress, inside .memotree.
const intentName = "intent.json"

// intent is what survives a crash between the first and the last rename of a batch:
// once it is durable the batch is decided, and the next Open finishes it.
type intent struct {
	Steps []step `json:"steps"`
}

type step struct {
	Temp   vpath.Path `json:"temp,omitempty"` // the synced new content, or "" for a delete
	Target vpath.Path `json:"target"`
}

// Apply makes a batch of changes all or nothing. Under the vault lock it first checks
// every precondition (content paths, CreateOnly, IfHash) and writes nothing if one
// fails. It then writes each new content to a temporary file beside its target and the
// intent to a temporary file in .memotree, makes them all durable with one sync,
// renames the intent into place and syncs its folder, and only then replaces and
// removes the targets; a crash after the intent is recorded is finished by the next
// Open (see Recover), a crash before leaves the vault as it was. With o.Actor set, one journey
// entry per changed file is appended in one write. It returns the new content hashes,
// "" for deletes.
func (v *Vault) Apply(ctx context.Context, changes []Change, o WriteOptions) ([]Hash, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply %d changes: %w", len(changes), err)
	}
	defer unlock()
	return v.applyLocked(ctx, changes, o)
}

// applyLocked is Apply for a caller that holds the vault lock.
func (v *Vault) applyLocked(ctx context.Context, changes []Change, o WriteOptions) ([]Hash, error) {
	dirs := v.newBatchDirs()
	defer dirs.close()
	targets, err := v.checkBatch(dirs, changes)
	if err != nil {
		return nil, err
	}
	paths := make([]vpath.Path, len(targets))
	for i, t := range targets {
		paths[i] = t.path
	}
	if err := v.saveUndo(ctx, paths); err != nil {
		return nil, fmt.Errorf("apply %d changes: %w", len(changes), err)
	}
	hashes, steps, itmp, err := v.stageBatch(dirs, changes, targets)
	if err != nil {
		return nil, err
	}
	if err := v.commitBatch(dirs, steps, itmp); err != nil {
		return nil, err
	}
	for i, c := range changes {
		v.own.record(c.Path, hashes[i])
		v.own.record(targets[i].path, hashes[i])
	}
	v.savePost(ctx, paths, hashes)
	if err := v.journalBatch(changes, o); err != nil {
		return hashes, fmt.Errorf("apply %d changes: written, but %w", len(changes), err)
	}
	return hashes, nil
}

// target is where a change of a batch lands, as checkBatch found it under the lock.
type target struct {
	path   vpath.Path  // the path finally written (symbolic links followed)
	exists bool        // a file is there
	perm   fs.FileMode // its permissions, when it exists
}

// checkBatch validates every change under the lock and returns where each lands.
func (v *Vault) checkBatch(dirs *batchDirs, changes []Change) ([]target, error) {
	seen := map[vpath.Path]bool{}
	targets := make([]target, len(changes))
	for i, c := range changes {
		if err := checkContent(c.Path); err != nil {
			return nil, pathErr(c.Path, err)
		}
		t, mode, err := v.resolveWith(dirs, c.Path)
		if err != nil {
			return nil, pathErr(c.Path, err)
		}
		if seen[t] {
			return nil, pathErr(c.Path, errors.New("changed twice in one batch"))
		}
		seen[t] = true
		exists := mode != absent
		targets[i] = target{path: t, exists: exists && mode.IsRegular()}
		if targets[i].exists {
			targets[i].perm = mode.Perm()
		}
		switch {
		case exists && mode.IsDir():
			return nil, pathErr(c.Path, fmt.Errorf("%w: a folder has this name", ErrExists))
		case c.CreateOnly && exists:
			return nil, pathErr(c.Path, ErrExists)
		case c.IfHash != "":
			if err := v.checkHashWith(dirs, t, c.IfHash); err != nil {
				return nil, pathErr(c.Path, err)
			}
		}
	}
	return targets, nil
}

// stageBatch writes every new content to a temporary file, and the intent of the
// batch to another, and makes them all durable; it returns the intent's temporary
// file. On failure it removes what it wrote.
func (v *Vault) stageBatch(dirs *batchDirs, changes []Change, targets []target) ([]Hash, []step, vpath.Path, error) {
	hashes := make([]Hash, len(changes))
	steps := make([]step, 0, len(changes))
	ok := false
	defer func() {
		if !ok {
			for _, s := range steps {
				if s.Temp != "" {
					_ = v.root.Remove(osName(s.Temp))
				}
			}
		}
	}()
	made := map[vpath.Path]bool{} // folders known to exist
	for i, c := range changes {
		t := targets[i]
		if c.Delete {
			steps = append(steps, step{Target: t.path})
			continue
		}
		if dir := t.path.Dir(); !t.exists && !made[dir] {
			if err := v.root.MkdirAll(osName(dir), 0o755); err != nil {
				return nil, nil, "", pathErr(c.Path, fmt.Errorf("create folder %s: %w", dir, mapErr(err)))
			}
			made[dir] = true
		}
		tmp, err := v.writeTemp(dirs, t, c.Data)
		if err != nil {
			return nil, nil, "", pathErr(c.Path, err)
		}
		steps = append(steps, step{Temp: tmp, Target: t.path})
		hashes[i] = HashOf(c.Data)
	}
	itmp, err := v.stageIntent(steps)
	if err != nil {
		return nil, nil, "", err
	}
	// One sync makes the contents and the intent durable together; the intent is
	// published (renamed into place) only after it, so it never names a temporary file
	// that is not durable.
	if err := syncAll(v, slices.Concat(steps, []step{{Temp: itmp}})); err != nil {
		_ = v.root.Remove(osName(itmp))
		return nil, nil, "", fmt.Errorf("apply: %w", err)
	}
	ok = true
	return hashes, steps, itmp, nil
}

// stageIntent writes the intent of steps, unsynced, to a temporary file inside
// .memotree and returns its path.
func (v *Vault) stageIntent(steps []step) (vpath.Path, error) {
	b, err := json.Marshal(intent{Steps: steps})
	if err != nil {
		return "", fmt.Errorf("apply: %w", err)
	}
	if err := v.ensureInternal(); err != nil {
		return "", fmt.Errorf("apply: record intent: %w", err)
	}
	tmp := vpath.Path(internalDir).Join(TempPrefix + rand.Text())
	f, err := v.root.OpenFile(osName(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("apply: record intent: %w", mapErr(err))
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = v.root.Remove(osName(tmp))
		return "", fmt.Errorf("apply: record intent: %w", err)
	}
	return tmp, nil
}

// writeTemp writes data, unsynced, to a new temporary file beside t, whose folder
// exists, with the mode of the file it will replace (0644 for a new file).
func (v *Vault) writeTemp(dirs *batchDirs, t target, data []byte) (vpath.Path, error) {
	perm := fs.FileMode(0o644)
	if t.exists {
		perm = t.perm
	}
	name := TempPrefix + rand.Text()
	if err := dirs.createTemp(t.path.Dir(), name, perm, t.exists, data); err != nil {
		return "", fmt.Errorf("write temporary file: %w", mapErr(err))
	}
	return t.path.Dir().Join(name), nil
}

// commitBatch publishes the intent staged (and synced) at itmp, makes that durable,
// applies every step, and clears the intent.
func (v *Vault) commitBatch(dirs *batchDirs, steps []step, itmp vpath.Path) error {
	in := vpath.Path(internalDir).Join(intentName)
	if err := v.root.Rename(osName(itmp), osName(in)); err != nil {
		_ = v.root.Remove(osName(itmp))
		return fmt.Errorf("apply: record intent: %w", mapErr(err))
	}
	if err := dirs.syncDir(in.Dir()); err != nil {
		return fmt.Errorf("apply: record intent: %w", err)
	}
	if err := v.finishWith(dirs, steps); err != nil {
		// The intent stays: the next Open finishes what is left.
		return fmt.Errorf("apply: %w (the next open of the vault finishes the batch)", err)
	}
	if err := v.RemoveInternal(intentName); err != nil {
		return fmt.Errorf("apply: clear intent: %w", err)
	}
	return nil
}

// finish performs the steps of a decided batch; it is idempotent, so that recovery
// can run it again after a crash in the middle.
func (v *Vault) finish(steps []step) error {
	dirs := v.newBatchDirs()
	defer dirs.close()
	return v.finishWith(dirs, steps)
}

// finishWith is finish with the batch's open folders.
func (v *Vault) finishWith(bd *batchDirs, steps []step) error {
	dirs := map[vpath.Path]bool{}
	for _, s := range steps {
		dirs[s.Target.Dir()] = true
		if s.Temp == "" {
			if err := v.root.Remove(osName(s.Target)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", s.Target, mapErr(err))
			}
			continue
		}
		err := bd.rename(s.Temp, s.Target)
		if errors.Is(err, errSlowPath) {
			err = v.root.Rename(osName(s.Temp), osName(s.Target))
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue // already moved before a crash
		}
		if err != nil {
			return fmt.Errorf("replace %s: %w", s.Target, mapErr(err))
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, string(d))
	}
	sort.Strings(names)
	for _, d := range names {
		if err := bd.syncDir(vpath.Path(d)); err != nil {
			return err
		}
	}
	return nil
}

// Recover finishes a batch that a crash interrupted after its intent was recorded, then
// rolls back every change set whose undo journal outlived its owner (see Undo), and
// reports whether it did either. Library.Open calls it; it takes the vault lock.
func (v *Vault) Recover(ctx context.Context) (bool, error) {
	finished, err := v.recoverIntent(ctx)
	if err != nil {
		return finished, err
	}
	restored, err := v.recoverUndo(ctx)
	return finished || len(restored) > 0, err
}

// recoverIntent finishes a batch whose intent was recorded.
func (v *Vault) recoverIntent(ctx context.Context) (bool, error) {
	b, err := v.ReadInternal(intentName)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return false, fmt.Errorf("recover: %w", err)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	b, err = v.ReadInternal(intentName) // another process may have finished it meanwhile
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	var in intent
	if err != nil || json.Unmarshal(b, &in) != nil {
		// A torn intent was never durable, so its batch was never decided: drop it.
		return false, v.RemoveInternal(intentName)
	}
	for _, s := range in.Steps {
		if checkContent(s.Target) != nil || (s.Temp != "" && !isTemp(s.Temp)) {
			return false, fmt.Errorf("recover: the intent names %s, which is not content: left as is", s.Target)
		}
	}
	if err := v.finish(in.Steps); err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	return true, v.RemoveInternal(intentName)
}

// pathErr names the file of a batch that failed; errors.As to *fs.PathError gives it.
func pathErr(p vpath.Path, err error) error {
	return &fs.PathError{Op: "apply", Path: string(p), Err: err}
}

func isTemp(p vpath.Path) bool { return bytes.HasPrefix([]byte(p.Base()), []byte(TempPrefix)) }

// journalBatch appends one entry per change, in one write.
func (v *Vault) journalBatch(changes []Change, o WriteOptions) error {
	if o.Actor == "" {
		return nil
	}
	now := time.Now().Round(0).Truncate(time.Millisecond)
	entries := make([]Entry, len(changes))
	for i, c := range changes {
		op := o.Op
		if op == "" {
			op = "write"
			if c.Delete {
				op = "delete"
			}
		}
		entries[i] = Entry{Time: now, Actor: o.Actor, Op: op, Entities: []string{string(c.Path)}, Outcome: "ok", Turn: o.Turn, Session: o.Session}
	}
	b, err := encodeEntries(entries)
	if err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	if err := v.appendFile(b); err != nil {
		return fmt.Errorf("append journey: %w", err)
	}
	return nil
}
