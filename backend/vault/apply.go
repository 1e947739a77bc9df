package vault

import (
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

	"github.com/memotree/memotree/backend/internal/fsfault"
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
	// From, on a file written (not deleted), says it is the file at From moved here,
	// edited or not (the batch deletes From): the journey records the move, so that
	// git's status can show one move rather than a deletion and a new file.
	From vpath.Path

	// mode, when set (by a transaction's move), is the file's permission bits,
	// exactly: a moved file keeps them, as a rename would.
	mode fs.FileMode
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
	// Was, when set, is the same file as Target under a spelling that differs only
	// in case (a file system that ignores case): the batch deletes Was and creates
	// Target, so Was is renamed to Target first, then replaced by Temp. A delete of
	// Was would remove Target with it, and so would its repetition by a recovery.
	Was vpath.Path `json:"was,omitempty"`
}

// Apply makes a batch of changes all or nothing. Under the vault lock it first checks
// every precondition (content paths, CreateOnly, IfHash) and writes nothing if one
// fails. It then writes each new content to a temporary file beside its target and the
// intent to a temporary file in .memotree, makes them all durable with one sync,
// renames the intent into place and syncs its folder, and only then replaces and
// removes the targets; a crash after the intent is recorded is finished by the next
// Open (see Recover), a crash before leaves the vault as it was. With o.Actor set, one journey
// entry per changed file is appended in one write; if only that fails, the batch is
// made and the failure is a notice (internal/notice) of ctx, not an error. It returns
// the new content hashes, "" for deletes.
//
// A failure before the intent is recorded (a full disk) leaves the vault exactly as it
// was, temporary files removed. A failure after it is retried at once, and if it fails
// again the next Lock, in this process or another, finishes the batch.
func (v *Vault) Apply(ctx context.Context, changes []Change, o WriteOptions) ([]Hash, error) {
	if v.stage != nil {
		return v.stage.apply(changes, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply %d changes: %w", len(changes), err)
	}
	defer unlock()
	return v.applyLocked(ctx, changes, o)
}

// applyLocked is Apply for a caller that holds the vault lock.
func (v *Vault) applyLocked(ctx context.Context, changes []Change, o WriteOptions) ([]Hash, error) {
	hashes, err := v.applyBatch(changes)
	if err = v.settle(ctx, fmt.Sprintf("a batch of %d changes", len(changes)), err); err != nil {
		return nil, err
	}
	v.journaled(ctx, v.journalBatch(changes, o), fmt.Sprintf("a batch of %d changes", len(changes)))
	return hashes, nil
}

// applyBatch checks and makes a batch under the lock the caller holds. An error that
// isMade reports comes with the hashes: the batch was made.
func (v *Vault) applyBatch(changes []Change) ([]Hash, error) {
	dirs := v.newBatchDirs()
	defer dirs.close()
	targets, err := v.checkBatch(dirs, changes)
	if err != nil {
		return nil, err
	}
	return v.applyChecked(dirs, changes, targets)
}

// applyChecked stages and commits a checked batch.
func (v *Vault) applyChecked(dirs *batchDirs, changes []Change, targets []target) ([]Hash, error) {
	st, err := v.stageBatch(dirs, changes, targets)
	if err != nil {
		return nil, err
	}
	err = v.commitBatch(dirs, st)
	if err != nil && !isMade(err) {
		return nil, err
	}
	for i, c := range changes {
		v.own.record(c.Path, st.hashes[i])
		v.own.record(targets[i].path, st.hashes[i])
	}
	return st.hashes, err
}

// target is where a change of a batch lands, as checkBatch found it under the lock.
type target struct {
	path   vpath.Path  // the path finally written (symbolic links followed)
	exists bool        // a file is there
	perm   fs.FileMode // its permissions, when it exists
	// was is, for a file created where the file a delete of the batch removes
	// already is under another spelling (a rename that only changes case, where case
	// is ignored), that delete's path; renamed says a delete is done so.
	was     vpath.Path
	renamed bool
}

// checkBatch validates every change under the lock and returns where each lands.
func (v *Vault) checkBatch(dirs *batchDirs, changes []Change) ([]target, error) {
	seen := map[vpath.Path]bool{}
	targets := make([]target, len(changes))
	var clashes []int // created where a file is
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
		case exists && !mode.IsRegular():
			return nil, pathErr(c.Path, notRegular(mode))
		case c.CreateOnly && exists:
			clashes = append(clashes, i)
		case exists && readOnly(mode.Perm()):
			return nil, pathErr(c.Path, ErrReadOnly)
		case c.IfHash != "":
			if err := v.checkHashWith(dirs, t, c.IfHash); err != nil {
				return nil, pathErr(c.Path, err)
			}
		}
	}
	for _, i := range clashes {
		j := v.caseRenamed(changes, targets, i)
		if j < 0 {
			return nil, pathErr(changes[i].Path, ErrExists)
		}
		targets[i].was, targets[j].renamed = targets[j].path, true
	}
	return targets, nil
}

// caseRenamed returns the change of the batch that deletes the file a creation at
// targets[i] finds in its place under another spelling (sameEntry: a rename that
// only changes case, on a file system that ignores it), or -1.
func (v *Vault) caseRenamed(changes []Change, targets []target, i int) int {
	for j, c := range changes {
		if c.Delete && targets[j].exists && !targets[j].renamed && v.respelled(targets[j].path, targets[i].path) {
			return j
		}
	}
	return -1
}

// staged is a batch written to temporary files, not yet decided.
type staged struct {
	hashes []Hash
	steps  []step
	itmp   vpath.Path   // the intent's temporary file
	made   []vpath.Path // the folders created for it, in the order created
}

// discard removes what stageBatch wrote: the vault is as it was before.
func (v *Vault) discard(dirs *batchDirs, st *staged) {
	for _, s := range st.steps {
		if s.Temp != "" {
			_ = dirs.remove(s.Temp)
		}
	}
	if st.itmp != "" {
		_ = dirs.remove(st.itmp)
	}
	v.removeDirs(dirs, st.made)
}

// stageBatch writes every new content to a temporary file, and the intent of the
// batch to another, and makes them all durable. On failure it removes what it wrote
// and the folders it made.
func (v *Vault) stageBatch(dirs *batchDirs, changes []Change, targets []target) (*staged, error) {
	st := &staged{hashes: make([]Hash, len(changes)), steps: make([]step, 0, len(changes))}
	ok := false
	defer func() {
		if !ok {
			v.discard(dirs, st)
		}
	}()
	known := map[vpath.Path]bool{} // folders known to exist
	for i, c := range changes {
		t := targets[i]
		if c.Delete {
			if !t.renamed { // else renamed to its new spelling (step.Was)
				st.steps = append(st.steps, step{Target: t.path})
			}
			continue
		}
		if dir := t.path.Dir(); !t.exists && !known[dir] {
			made, err := v.makeDirs(dirs, dir)
			st.made = append(st.made, made...)
			if err != nil {
				return nil, pathErr(c.Path, err)
			}
			known[dir] = true
		}
		tmp, err := v.writeTemp(dirs, t, c.Data, c.mode)
		if err != nil {
			return nil, pathErr(c.Path, err)
		}
		st.steps = append(st.steps, step{Temp: tmp, Target: t.path, Was: t.was})
		st.hashes[i] = HashOf(c.Data)
	}
	itmp, err := v.stageIntent(st.steps)
	if err != nil {
		return nil, err
	}
	st.itmp = itmp
	// One sync makes the contents and the intent durable together; the intent is
	// published (renamed into place) only after it, so it never names a temporary file
	// that is not durable.
	if err := syncAll(v, slices.Concat(st.steps, []step{{Temp: itmp}})); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	ok = true
	return st, nil
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
	f, err := createFile(v.root, osName(tmp))
	if err != nil {
		return "", fmt.Errorf("apply: record intent: %w", mapErr(err))
	}
	err = fsfault.Check("write", string(tmp))
	if err == nil {
		_, err = f.Write(b)
	}
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
// exists, with the mode of the file it will replace (0644 for a new file), or mode
// exactly when it is set.
func (v *Vault) writeTemp(dirs *batchDirs, t target, data []byte, mode fs.FileMode) (vpath.Path, error) {
	perm, exact := fs.FileMode(0o644), t.exists
	if t.exists {
		perm = t.perm
	}
	if mode != 0 {
		perm, exact = mode.Perm(), true
	}
	name := TempPrefix + rand.Text()
	if err := dirs.createTemp(t.path.Dir(), name, perm, exact, data); err != nil {
		return "", fmt.Errorf("write temporary file: %w", mapErr(err))
	}
	return t.path.Dir().Join(name), nil
}

// commitBatch publishes the intent of st, makes that durable, applies every step, and
// clears the intent. Until the intent is durable, a failure discards the batch and
// leaves the vault as it was; from then on the batch is decided: a failing step is
// tried once more, and if it fails again the next Lock (in this process or another)
// finishes the batch. An error that isMade reports says the batch was made but what
// followed (a folder's sync, clearing the intent) failed.
func (v *Vault) commitBatch(dirs *batchDirs, st *staged) error {
	in := vpath.Path(internalDir).Join(intentName)
	err := fsfault.Check("rename", string(in))
	if err == nil {
		err = v.root.Rename(osName(st.itmp), osName(in))
	}
	if err != nil {
		v.discard(dirs, st)
		return fmt.Errorf("apply: record intent: %w", mapErr(err))
	}
	st.itmp = ""
	if err := dirs.syncDir(in.Dir()); err != nil {
		// Not known to be durable: take the decision back if we can.
		if rerr := v.RemoveInternal(intentName); rerr == nil {
			v.discard(dirs, st)
			return fmt.Errorf("apply: record intent: %w", err)
		}
	}
	err = v.finishWith(dirs, st.steps)
	if err != nil && !isMade(err) {
		err = v.finishWith(dirs, st.steps) // a moment's failure: once more
	}
	if err != nil && !isMade(err) {
		// The intent stays: the next Lock finishes what is left.
		return fmt.Errorf("apply: %w (%w)", err, ErrPending)
	}
	if rerr := v.RemoveInternal(intentName); rerr != nil {
		if rerr = v.RemoveInternal(intentName); rerr != nil {
			return made(fmt.Errorf("clear the intent: %w", rerr))
		}
	}
	return err
}

// finish performs the steps of a decided batch; it is idempotent, so that recovery
// can run it again after a crash in the middle.
func (v *Vault) finish(steps []step) error {
	dirs := v.newBatchDirs()
	defer dirs.close()
	err := v.finishWith(dirs, steps)
	if isMade(err) {
		return nil // made; its folders' sync is tried by the next writes there
	}
	return err
}

// finishWith is finish with the batch's open folders. Once every step is done, a
// failing sync of a folder is reported as made (see isMade).
func (v *Vault) finishWith(bd *batchDirs, steps []step) error {
	dirs := map[vpath.Path]bool{}
	for _, s := range steps {
		dirs[s.Target.Dir()] = true
		if s.Temp == "" {
			err := fsfault.Check("remove", string(s.Target))
			if err == nil {
				err = bd.remove(s.Target)
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", s.Target, mapErr(err))
			}
			continue
		}
		if s.Was != "" {
			if err := bd.rename(s.Was, s.Target); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("rename %s to %s: %w", s.Was, s.Target, mapErr(err))
			}
		}
		err := fsfault.Check("rename", string(s.Target))
		if err == nil {
			err = bd.rename(s.Temp, s.Target)
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
	var errs []error
	for _, d := range names {
		if err := bd.syncDir(vpath.Path(d)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return made(errors.Join(errs...))
	}
	return nil
}

// pathErr names the file of a batch that failed; errors.As to *fs.PathError gives it.
func pathErr(p vpath.Path, err error) error {
	return &fs.PathError{Op: "apply", Path: string(p), Err: err}
}

// journalBatch appends one entry per change (or o.Journey), in one write.
func (v *Vault) journalBatch(changes []Change, o WriteOptions) error {
	entries := o.Journey
	if entries == nil {
		entries = batchEntries(changes, o, time.Now())
	}
	if len(entries) == 0 {
		return nil
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

// batchEntries returns the journey entries of a batch made at now: one per change,
// under o's actor; none when o.Actor is empty.
func batchEntries(changes []Change, o WriteOptions, now time.Time) []Entry {
	if o.Actor == "" {
		return nil
	}
	now = now.Round(0).Truncate(time.Millisecond)
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
		if c.From != "" && !c.Delete {
			entries[i].Entities = append(entries[i].Entities, string(c.From))
			entries[i].From = string(c.From)
		}
	}
	return entries
}

// createFile creates the new file name of r for writing.
func createFile(r *os.Root, name string) (*os.File, error) {
	if err := fsfault.Check("create", name); err != nil {
		return nil, err
	}
	return r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
}
