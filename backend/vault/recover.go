package vault

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// conflictsName is the record, inside .memotree, of the files a recovery kept because
// they changed after the crash (see RecoveryConflicts).
const conflictsName = "recovery-conflicts.jsonl"

// Recovery is what rolling back one crashed change set did in a vault.
type Recovery struct {
	// ChangeSet names the change set (the journal's id, "script-…").
	ChangeSet string
	// Restored are the paths put back as they were before the change set.
	Restored []vpath.Path
	// Kept are the paths that changed after the crash: left as they are, and recorded
	// (see RecoveryConflicts).
	Kept []vpath.Path
	// Err says why the rollback failed; the journal then stays, for the next try.
	Err error
}

// Message says what the recovery did, for the person.
func (r Recovery) Message() string {
	var parts []string
	if len(r.Restored) > 0 {
		parts = append(parts, fmt.Sprintf("put back %d file(s) as they were before it", len(r.Restored)))
	}
	if len(r.Kept) > 0 {
		parts = append(parts, fmt.Sprintf("kept %s as they are, because they changed after the crash (the change set's version of them was not put back; review them; `memotree doctor` lists them)", listPaths(r.Kept, 5)))
	}
	if r.Err != nil {
		parts = append(parts, fmt.Sprintf("could not finish: %v (it is tried again at the next write)", r.Err))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing had changed")
	}
	return fmt.Sprintf("a change set (%s) was interrupted by a crash and rolled back: %s", r.ChangeSet, strings.Join(parts, "; "))
}

func listPaths(ps []vpath.Path, n int) string {
	var names []string
	for i, p := range ps {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(ps)-n))
			break
		}
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// RecoveryConflict is one file a recovery kept instead of rolling it back.
type RecoveryConflict struct {
	Time      time.Time  `json:"time"`
	ChangeSet string     `json:"change_set"`
	Path      vpath.Path `json:"path"`
	Reason    string     `json:"reason"`
}

// recoveries is what a Vault tells about the recoveries it made: the warnings not yet
// given to a caller, and who wants to hear of each.
type recoveries struct {
	mu      sync.Mutex
	pending []string
	hooks   []func(Recovery)
}

// OnRecover registers fn to be called, on a goroutine of its own, after every rollback
// of a crashed change set this Vault makes (the library re-reads the restored files
// and tells the window).
func (v *Vault) OnRecover(fn func(Recovery)) {
	v.rec.mu.Lock()
	v.rec.hooks = append(v.rec.hooks, fn)
	v.rec.mu.Unlock()
}

// told records r: its message goes to the caller whose context collects notices, or
// waits for the next one (see Lock), and the hooks hear of it.
func (v *Vault) told(ctx context.Context, r Recovery) {
	v.warn(ctx, r.Message())
	v.rec.mu.Lock()
	hooks := slices.Clone(v.rec.hooks)
	v.rec.mu.Unlock()
	for _, h := range hooks {
		go h(r)
	}
}

// tell gives the warnings that waited for a caller to ctx, if it collects them.
func (v *Vault) tell(ctx context.Context) {
	if !notice.Wants(ctx) {
		return
	}
	v.rec.mu.Lock()
	defer v.rec.mu.Unlock()
	for _, m := range v.rec.pending {
		notice.Add(ctx, "%s", m)
	}
	v.rec.pending = nil
}

// Recover finishes a batch that a crash interrupted after its intent was recorded, then
// rolls back every change set whose undo journal outlived its owner (see Undo), and
// reports whether it did either. Library.Open calls it; it takes the vault lock (so
// does every write, which recovers the same way before it writes). A vault without
// .memotree has no intent or journal to recover, and is left untouched: opening a
// folder writes nothing in it.
func (v *Vault) Recover(ctx context.Context) (bool, error) {
	if !v.hasInternal() {
		return false, nil
	}
	unlock, err := v.lockOnly(ctx)
	if err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	did, err := v.recoverLocked(ctx)
	if fsfault.Is(err) {
		// A full disk must not keep the vault from opening: the rollback waits in its
		// journal for the next write, and the person was told.
		err = nil
	}
	v.tell(ctx)
	return did, err
}

// recoverLocked is Recover under the lock, which the caller holds. Under the lock no
// batch of a live writer is in progress, so an intent is always a crashed one.
func (v *Vault) recoverLocked(ctx context.Context) (bool, error) {
	intentFound, journals := v.leftovers()
	did := false
	var errs []error
	if intentFound {
		finished, err := v.recoverIntentLocked()
		did = did || finished
		if err != nil {
			v.warn(ctx, fmt.Sprintf("a batch of writes interrupted by a crash could not be finished: %v (it is tried again at the next write; `memotree doctor` checks the vault)", err))
			errs = append(errs, err)
		}
	}
	var bad []string
	for _, name := range journals {
		r, ok, isBad, err := v.recoverOne(ctx, name)
		if isBad {
			bad = append(bad, name)
		}
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			did = did || r.Err == nil
			v.told(ctx, r)
		} else if err != nil {
			v.warn(ctx, err.Error())
		}
	}
	v.keepDamaged(bad)
	return did, errors.Join(errs...)
}

// leftovers lists what a crash may have left in .memotree: the intent of a batch, the
// undo journals (live or not).
func (v *Vault) leftovers() (intentFound bool, journals []string) {
	f, err := regular.OpenDir(v.root, internalDir)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	_ = dirents.List(f, func(name []byte, _ fs.FileMode) {
		n := string(name)
		switch {
		case n == intentName:
			intentFound = true
		case strings.HasPrefix(n, undoPrefix) && strings.HasSuffix(n, undoSuffix):
			journals = append(journals, internalDir+"/"+n)
		}
	})
	slices.Sort(journals)
	return intentFound, journals
}

// RecoverStale rolls back, at once, every change set whose owner died (its journal's
// lock is free), and returns how many undo journals are left: those of live change
// sets (in this process or another), and any whose rollback failed (err then says
// why); damaged ones, which no rollback can use (see DamagedJournals), are not
// counted. A process that keeps the vault open calls it when an undo journal appears
// and while one remains, so that a crashed change set is undone before anyone reads or
// builds on its half. It takes the vault lock whenever a journal or a batch's intent
// is there: whether a journal's owner lives is asked only under the vault lock, since
// the question holds the journal's lock for a moment, and a writer's recovery that
// found it held then would take a crashed change set for a live one and write on its
// half.
func (v *Vault) RecoverStale(ctx context.Context) (pending int, err error) {
	if intentFound, journals := v.leftovers(); !intentFound && len(journals) == 0 {
		return 0, nil
	}
	unlock, err := v.lockOnly(ctx)
	if err != nil {
		_, journals := v.leftovers()
		return len(journals), fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	_, err = v.recoverLocked(ctx)
	_, journals := v.leftovers()
	return len(journals) - len(v.DamagedJournals()), err
}

// recoverOne rolls back the journal name unless its owner still holds it; ok says it
// was a crashed change set's. bad says it is one that no rollback can use: it stays,
// is kept in DamagedJournals and warned of, and is no error (the vault opens). The
// caller holds the vault lock.
func (v *Vault) recoverOne(ctx context.Context, name string) (r Recovery, ok, bad bool, err error) {
	r.ChangeSet = strings.TrimSuffix(strings.TrimPrefix(name, internalDir+"/"+undoPrefix), undoSuffix)
	if v.heldHere(name) {
		return r, false, false, nil // a live change set of this process: not even opened (see live)
	}
	f, _, err := regular.OpenFile(v.root, name, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotRegular) {
		return r, false, false, nil
	}
	if err != nil {
		st, _ := v.root.Lstat(name)
		v.setDamaged(ctx, DamagedJournal{Name: name, ChangeSet: r.ChangeSet, Reason: fmt.Sprintf("it cannot be opened (%v)", mapErr(err))}, st, false)
		return r, false, true, nil
	}
	defer f.Close()
	if locked, err := v.probe(f); err != nil || !locked {
		return r, false, false, nil // a live change set, in this process or another
	}
	if v.onJournalProbe != nil {
		v.onJournalProbe(name)
	}
	// Its owner removes a journal before it lets go of it: one that is gone by now
	// belonged to a change set that ended.
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return r, false, false, nil
	} else if now, err := v.root.Lstat(name); err != nil || !os.SameFile(st, now) {
		return r, false, false, nil
	}
	if d, known := v.knownDamaged(name, st); known {
		v.warn(ctx, d.Message())
		return r, false, true, nil
	}
	j, err := v.readJournalFile(f, name)
	if err != nil {
		d := DamagedJournal{Name: name, ChangeSet: r.ChangeSet, Reason: fmt.Sprintf("it cannot be read (%v)", err)}
		de := (*damagedError)(nil)
		sticky := errors.As(err, &de)
		if sticky {
			d.Reason = de.reason
		}
		if _, serr := f.Seek(0, io.SeekStart); serr == nil {
			d.Paths = namedPaths(f)
		}
		v.setDamaged(ctx, d, st, sticky)
		return r, false, true, nil
	}
	r.Restored, r.Kept, r.Err = v.rollbackLocked(j, "recover")
	if r.Err != nil {
		return r, true, false, fmt.Errorf("recover: %w", r.Err)
	}
	v.recordConflicts(r)
	v.removeOrphanTemps(j.pre)
	if err := fsfault.Check("remove", name); err == nil {
		err = v.root.Remove(name)
	}
	_ = v.syncDir(internalDir)
	return r, true, false, nil
}

// readJournalFile reads the journal f, at name, for a rollback: a read error, a
// damaged record before the torn end or a path that is not content fails it.
func (v *Vault) readJournalFile(f io.Reader, name string) (journal, error) {
	if v.onJournalRead != nil {
		if err := v.onJournalRead(name); err != nil {
			return journal{}, err
		}
	}
	j, err := readJournal(f)
	if err != nil {
		return journal{}, err
	}
	if err := checkJournal(j); err != nil {
		return journal{}, err
	}
	return j, v.checkJournalWays(j)
}

// checkJournalWays fails, as damaged, a journal that names a path with a symbolic link
// on its way: MemoTree records the paths it resolved, which have none, so the journal
// was not its own (a vault copied with a crafted .memotree) or the folders changed
// since, and no rollback writes there.
func (v *Vault) checkJournalWays(j journal) error {
	bd := v.newBatchDirs()
	defer bd.close()
	for _, p := range j.pre {
		if err := v.checkRecorded(bd, p.Path); err != nil {
			return damaged("it names %q, which a rollback cannot write: %v", string(p.Path), err)
		}
	}
	return nil
}

// readJournal parses a journal: the pre-image of each path (its first record) and the
// post-images recorded for it. A torn last line was never synced, so the write it
// announced never happened: it is ignored.
func readJournal(f io.Reader) (journal, error) {
	j := newJournal()
	seen := map[vpath.Path]bool{}
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF { // a line without its newline is torn
			return j, nil
		}
		if err != nil {
			return journal{}, fmt.Errorf("read: %w", err)
		}
		var rec undoRecord
		if jerr := json.Unmarshal(line, &rec); jerr != nil {
			return journal{}, damaged("its record on line %d is damaged (%v)", n, jerr)
		}
		if !seen[rec.Path] {
			seen[rec.Path] = true
			j.pre = append(j.pre, Preimage{Path: rec.Path, Existed: rec.Existed, Data: rec.Data, Mode: fs.FileMode(rec.Mode).Perm()})
			if rec.Above != "" {
				j.above[rec.Path] = aboveOf(rec.Above)
			}
		}
		if rec.Post != "" {
			j.posts[rec.Path] = append(j.posts[rec.Path], rec.Post)
		}
	}
}

// recordConflicts appends the paths r kept to the record in .memotree (best effort:
// the person is told in any case). A record that ends in a torn line (a crash in an
// earlier append whose cut failed) gets a newline first, so that the torn line
// cannot swallow the first of these.
func (v *Vault) recordConflicts(r Recovery) {
	if len(r.Kept) == 0 {
		return
	}
	var b []byte
	now := time.Now().Round(0).Truncate(time.Millisecond)
	for _, p := range r.Kept {
		line, _ := json.Marshal(RecoveryConflict{Time: now, ChangeSet: r.ChangeSet, Path: p,
			Reason: "changed after the crash: kept as it is instead of rolled back"})
		b = append(append(b, line...), '\n')
	}
	name := internalDir + "/" + conflictsName
	bd := v.newBatchDirs()
	defer bd.close()
	f, st, err := bd.openFile(vpath.Path(name), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	if hardLinked(st) {
		return
	}
	if n := st.Size(); n > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], n-1); err != nil {
			return
		}
		if last[0] != '\n' {
			b = append([]byte{'\n'}, b...)
		}
	}
	if err := fsfault.Check("write", name); err == nil {
		_, err = f.Write(b)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			_ = f.Truncate(st.Size())
		}
	}
}

// RecoveryConflicts returns the files recoveries kept because they changed after a
// crash, oldest first, from .memotree; memotree doctor lists them.
func (v *Vault) RecoveryConflicts() ([]RecoveryConflict, error) {
	b, err := v.ReadInternal(conflictsName)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []RecoveryConflict
	for _, line := range strings.Split(string(b), "\n") {
		var c RecoveryConflict
		if json.Unmarshal([]byte(line), &c) == nil && c.Path != "" {
			out = append(out, c)
		}
	}
	return out, nil
}

// ClearRecoveryConflicts forgets the record RecoveryConflicts reads (the person has
// reviewed the files).
func (v *Vault) ClearRecoveryConflicts() error { return v.RemoveInternal(conflictsName) }

// recoverIntentLocked finishes a batch whose intent was recorded; the caller holds
// the lock.
func (v *Vault) recoverIntentLocked() (bool, error) {
	b, err := v.ReadInternal(intentName)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	var in intent
	if err != nil || json.Unmarshal(b, &in) != nil {
		// A torn intent was never durable, so its batch was never decided: drop it.
		return false, v.RemoveInternal(intentName)
	}
	bd := v.newBatchDirs()
	defer bd.close()
	for _, s := range in.Steps {
		if v.checkRecorded(bd, s.Target) != nil || (s.Temp != "" && (!IsTempName(s.Temp.Base()) || s.Temp.Dir() != s.Target.Dir())) {
			return false, fmt.Errorf("recover: the intent names %s, which is not content: left as is", s.Target)
		}
	}
	if err := v.finish(in.Steps); err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	return true, v.RemoveInternal(intentName)
}

// rollbackLocked puts back the pre-images pre where the file is still what the change
// set wrote (one of posts), and keeps, returning them in kept, the paths that changed
// since (or whose change set recorded no post-image: a journal of an older MemoTree).
// Removals go first, each on its own (repeating them after a crash is harmless), so
// that what they free is there for the rewrites, which go in one batch made as Apply
// makes it. The caller holds the lock.
func (v *Vault) rollbackLocked(j journal, actor string) (paths, kept []vpath.Path, err error) {
	// A decided batch not finished yet may hold writes of the change set: finish it
	// first, or leave the rollback for later.
	if found, _ := v.leftovers(); found {
		if _, err := v.recoverIntentLocked(); err != nil {
			return nil, nil, fmt.Errorf("roll back: %w", err)
		}
	}
	var removals, rewrites []Change
	bd := v.newBatchDirs()
	defer bd.close()
	for _, p := range j.pre {
		if v.checkRecorded(bd, p.Path) != nil {
			return nil, nil, fmt.Errorf("roll back: the undo journal names %s, which is not content: left as is", p.Path)
		}
		cur, now, err := v.currentState(p.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("roll back %s: %w", p.Path, err)
		}
		switch {
		case p.Existed && now != noFile && now != "" && string(cur) == string(p.Data), !p.Existed && now == noFile:
			continue // as it was
		case now == "" || !slices.Contains(j.posts[p.Path], now):
			kept = append(kept, p.Path) // someone else's since, or not a regular, writable file
		case p.Existed:
			rewrites = append(rewrites, Change{Path: p.Path, Data: p.Data, mode: p.Mode})
		default:
			removals = append(removals, Change{Path: p.Path, Delete: true})
		}
	}
	if err := v.removeAll(removals, j.above); err != nil {
		return nil, kept, fmt.Errorf("roll back: %w", err)
	}
	for _, c := range removals {
		paths = append(paths, c.Path)
	}
	if len(rewrites) > 0 {
		if err := v.applyUnrecorded(rewrites); err != nil {
			return paths, kept, fmt.Errorf("roll back: %w", err)
		}
		for _, c := range rewrites {
			paths = append(paths, c.Path)
		}
	}
	if actor != "" && len(paths) > 0 {
		_ = v.journalBatch(slices.Concat(removals, rewrites), WriteOptions{Actor: actor, Op: "rollback"}) // best effort
	}
	return paths, kept, nil
}

// currentState reads the file at p for a rollback: its content and hash, noFile when
// there is none, and "" when it is something a rollback must leave alone (not a
// regular file, or read-only).
func (v *Vault) currentState(p vpath.Path) ([]byte, Hash, error) {
	f, st, err := openRegular(v.root, osName(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, noFile, nil
	case errors.Is(err, ErrNotRegular):
		return nil, "", nil
	case err != nil:
		return nil, "", mapErr(err)
	}
	f.Close()
	if readOnly(st.Mode().Perm()) {
		return nil, "", nil
	}
	b, err := readRegular(v.root, osName(p))
	if err != nil {
		return nil, "", mapErr(err)
	}
	return b, HashOf(b), nil
}

// removeAll removes the files of changes one by one, then the folders made for them
// (those below above[path] that are empty now), and syncs the folders.
func (v *Vault) removeAll(changes []Change, above map[vpath.Path]vpath.Path) error {
	bd := v.newBatchDirs() // a recorded path has no link on its way: none is followed
	defer bd.close()
	dirs := map[vpath.Path]bool{}
	for _, c := range changes {
		err := fsfault.Check("remove", string(c.Path))
		if err == nil {
			err = bd.remove(c.Path)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", c.Path, mapErr(err))
		}
		v.own.record(c.Path, "")
		dirs[c.Path.Dir()] = true
	}
	for _, c := range changes {
		top, known := above[c.Path]
		if !known {
			continue
		}
		for d := c.Path.Dir(); d != top && d != "" && strings.HasPrefix(string(d), string(top)); d = d.Dir() {
			if bd.remove(d) != nil {
				break // not empty, or not ours to remove
			}
			delete(dirs, d)
			dirs[d.Dir()] = true
		}
	}
	for d := range dirs {
		if err := v.syncDir(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// removeOrphanTemps removes the temporary files left in the folders of pre by a write
// that the crash interrupted. The caller holds the lock, under which every write
// creates and removes its temporary files, so any found now is an orphan. Only names
// MemoTree gives its own (IsTempName) are taken: a person's ".memotree-tmp-notes.md"
// stays.
func (v *Vault) removeOrphanTemps(pre []Preimage) {
	bd := v.newBatchDirs()
	defer bd.close()
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
			if e.Type().IsRegular() && IsTempName(e.Name()) {
				_ = bd.remove(d.Join(e.Name()))
			}
		}
	}
}

// warn gives msg to ctx's notices, or keeps it for the next caller that collects them.
func (v *Vault) warn(ctx context.Context, msg string) {
	v.rec.mu.Lock()
	defer v.rec.mu.Unlock()
	if !notice.Add(ctx, "%s", msg) && !slices.Contains(v.rec.pending, msg) {
		v.rec.pending = append(v.rec.pending, msg)
	}
}

// probe takes the lock of f, a journal or temporary file whose owner may live,
// without waiting; ok says it was free.
func (v *Vault) probe(f *os.File) (ok bool, err error) {
	if v.probeLock != nil {
		return v.probeLock(f)
	}
	return tryLockFile(f)
}
