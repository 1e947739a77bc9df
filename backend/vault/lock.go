package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// lockName is the lock file, relative to the internal folder.
const lockName = "lock"

// Lock takes the vault's exclusive lock, shared with every other Vault on the same
// folder in this process or another (flock on .memotree/lock where available). It
// waits until the lock is free or ctx is done, which gives ErrLocked. The returned
// function releases the lock; calling it more than once is harmless. The lock is not
// reentrant: a goroutine holding it must not call Write, Remove, Rename or
// AppendJourney.
//
// Before it returns, Lock finishes a batch whose writer crashed after recording its
// intent (see Recover), so no write lands on the half of a crashed batch. A failure
// to finish it, and any warning that waited for a caller, is added to ctx's notices
// (internal/notice) when it collects them.
func (v *Vault) Lock(ctx context.Context) (unlock func(), err error) {
	unlock, err = v.lockOnly(ctx)
	if err != nil {
		return nil, err
	}
	_, _ = v.finishCrashedLocked(ctx) // what failed is told, and tried again at the next lock
	v.tell(ctx)
	return unlock, nil
}

// lockOnly takes the lock as Lock does, without recovering.
func (v *Vault) lockOnly(ctx context.Context) (unlock func(), err error) {
	select {
	case v.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("lock %s: %w: %w", v.dir, ErrLocked, context.Cause(ctx))
	}
	f, err := v.openLockFile()
	if err == nil {
		err = waitLock(ctx, f, v.onLockWait)
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		<-v.sem
		return nil, fmt.Errorf("lock %s: %w", v.dir, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = unlockFile(f)
			f.Close()
			<-v.sem
		})
	}, nil
}

// waitLock polls tryLockFile with a growing pause until it succeeds or ctx is done;
// onWait, when set (by tests), runs once when the first try finds the lock taken.
func waitLock(ctx context.Context, f *os.File, onWait func()) error {
	pause := 500 * time.Microsecond
	for {
		ok, err := tryLockFile(f)
		if err != nil || ok {
			return err
		}
		if onWait != nil {
			onWait()
			onWait = nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %w", ErrLocked, context.Cause(ctx))
		}
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// openLockFile opens (creating if needed) the lock file; each Lock opens its own, so a
// lock file removed while the app runs is simply recreated.
func (v *Vault) openLockFile() (*os.File, error) {
	name := internalDir + "/" + lockName
	for attempt := 0; ; attempt++ {
		if err := v.ensureInternal(); err != nil {
			return nil, err
		}
		f, err := v.root.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if errors.Is(err, fs.ErrNotExist) && attempt == 0 {
			v.resetInternal()
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("open lock file: %w", mapErr(err))
		}
		return f, nil
	}
}

// HoldInternal takes an exclusive lock, without waiting, on the file name inside
// .memotree (created if needed), as Lock does on the vault's own lock file: every
// process sees it, and the system lets it go when the holder dies. ok is false, with
// no error, when another open file holds it. release lets the lock go; the file stays.
func (v *Vault) HoldInternal(name string) (release func(), ok bool, err error) {
	p, err := internalPath(name)
	if err != nil {
		return nil, false, fmt.Errorf("lock internal %s: %w", name, err)
	}
	if err := v.ensureInternal(); err != nil {
		return nil, false, fmt.Errorf("lock internal %s: %w", name, err)
	}
	if err := v.root.MkdirAll(osName(p.Dir()), 0o755); err != nil {
		return nil, false, fmt.Errorf("lock internal %s: %w", name, mapErr(err))
	}
	f, err := v.root.OpenFile(osName(p), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, fmt.Errorf("lock internal %s: %w", name, mapErr(err))
	}
	return holdLock(f, "internal", name)
}

// holdLock takes f's lock without waiting: on success it returns the function that
// releases it and closes f (once, however often called); when another holds it, ok is
// false; either way f is closed unless it is held.
func holdLock(f *os.File, kind, name string) (unlock func(), ok bool, err error) {
	ok, err = tryLockFile(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("lock %s %s: %w", kind, name, err)
		}
		return nil, false, nil
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = unlockFile(f)
			f.Close()
		})
	}, true, nil
}
