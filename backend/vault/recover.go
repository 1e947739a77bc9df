package vault

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/portable"
)

// notices are the warnings a Vault could not give to a caller yet (no context that
// collects notices was at hand): the next caller that collects them gets them.
type notices struct {
	mu      sync.Mutex
	pending []string
}

// tell gives the warnings that waited for a caller to ctx, if it collects them.
func (v *Vault) tell(ctx context.Context) {
	if !notice.Wants(ctx) {
		return
	}
	v.notes.mu.Lock()
	defer v.notes.mu.Unlock()
	for _, m := range v.notes.pending {
		notice.Add(ctx, "%s", m)
	}
	v.notes.pending = nil
}

// warn gives msg to ctx's notices, or keeps it for the next caller that collects them.
func (v *Vault) warn(ctx context.Context, msg string) {
	v.notes.mu.Lock()
	defer v.notes.mu.Unlock()
	if !notice.Add(ctx, "%s", msg) && !slices.Contains(v.notes.pending, msg) {
		v.notes.pending = append(v.notes.pending, msg)
	}
}

// Recover finishes a batch that a crash interrupted after its intent was recorded
// (see Apply), and reports whether it did. Library.Open calls it; it takes the vault
// lock (so does every write, which finishes such a batch the same way before it
// writes). A vault without .memotree has no intent to finish, and is left untouched:
// opening a folder writes nothing in it.
func (v *Vault) Recover(ctx context.Context) (bool, error) {
	if !v.hasInternal() {
		return false, nil
	}
	unlock, err := v.lockOnly(ctx)
	if err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	did, err := v.finishCrashedLocked(ctx)
	if fsfault.Is(err) {
		// A full disk must not keep the vault from opening: the batch waits in its
		// intent for the next write, and the person was told.
		err = nil
	}
	v.tell(ctx)
	return did, err
}

// RecoverStale finishes, at once, a batch whose writer died after its intent was
// recorded; err says why it could not (it is tried again at the next lock). A process
// that keeps the vault open calls it when the intent appears or changes (the watcher
// reports it), so that a crashed batch is finished before anyone reads or builds on its
// half. It takes the vault lock only when an intent is there: a live writer records
// and clears its intent under the lock, so the one found once the lock is had is a
// crashed writer's.
func (v *Vault) RecoverStale(ctx context.Context) error {
	if !v.hasIntent() {
		return nil
	}
	unlock, err := v.lockOnly(ctx)
	if err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	defer unlock()
	_, err = v.finishCrashedLocked(ctx)
	return err
}

// finishCrashedLocked finishes the batch whose intent a crash left, if any, and warns
// when it cannot. The caller holds the lock: under it no batch of a live writer is in
// progress, so an intent is always a crashed one.
func (v *Vault) finishCrashedLocked(ctx context.Context) (bool, error) {
	if !v.hasIntent() {
		return false, nil
	}
	finished, err := v.finishIntentLocked()
	if err != nil {
		v.warn(ctx, fmt.Sprintf("a batch of writes interrupted by a crash could not be finished: %v (it is tried again at the next write; `memotree doctor` checks the vault)", err))
	}
	return finished, err
}

// hasIntent reports whether .memotree holds the intent of a batch (a crashed one,
// unless its writer holds the lock). .memotree is opened as a folder only, never
// followed as a link nor waited on as a named pipe.
func (v *Vault) hasIntent() bool {
	f, err := regular.OpenDir(v.root, internalDir)
	if err != nil {
		return false
	}
	defer f.Close()
	found := false
	_ = dirents.List(f, func(name []byte, _ fs.FileMode) {
		found = found || string(name) == intentName
	})
	return found
}

// finishIntentLocked finishes a batch whose intent was recorded; the caller holds
// the lock.
func (v *Vault) finishIntentLocked() (bool, error) {
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
		was := s.Was != "" && (s.Temp == "" || v.checkRecorded(bd, s.Was) != nil || !portable.CaseOnly(string(s.Was), string(s.Target)))
		if was || v.checkRecorded(bd, s.Target) != nil || (s.Temp != "" && (!IsTempName(s.Temp.Base()) || s.Temp.Dir() != s.Target.Dir())) {
			return false, fmt.Errorf("recover: the intent names %s, which is not content: left as is", s.Target)
		}
	}
	if err := v.finish(in.Steps); err != nil {
		return false, fmt.Errorf("recover: %w", err)
	}
	return true, v.RemoveInternal(intentName)
}

// probe takes the lock of f, a temporary file whose writer may live, without
// waiting; ok says it was free.
func (v *Vault) probe(f *os.File) (ok bool, err error) {
	if v.probeLock != nil {
		return v.probeLock(f)
	}
	return tryLockFile(f)
}
