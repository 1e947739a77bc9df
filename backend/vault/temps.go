package vault

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// tempRandLen is the length of the random part of a temporary file's name: what
// crypto/rand.Text returns, 26 characters of the RFC 4648 base32 alphabet.
const tempRandLen = 26

// TempName returns a new name for a temporary file: TempPrefix followed by 26 random
// characters of A–Z and 2–7 (crypto/rand.Text), a name IsTempName knows and no person
// would choose.
func TempName() string { return TempPrefix + rand.Text() }

// IsTempName reports whether name, a file's base name, is one MemoTree gives its
// temporary files (TempName): TempPrefix and exactly 26 characters of A–Z and 2–7.
// Only files named so are ever removed as the orphans of a crash; a person's own
// ".memotree-tmp-notes.md" is not one and is never removed.
func IsTempName(name string) bool {
	rest, ok := strings.CutPrefix(name, TempPrefix)
	if !ok || len(rest) != tempRandLen {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; (c < 'A' || c > 'Z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}

// internalTempAge is how old a temporary file in .memotree whose lock is free must be
// before it is taken for an orphan: its writer takes the lock once the content is
// written, so a younger one may be a write in progress.
const internalTempAge = time.Minute

// isInternal reports whether p lies inside .memotree.
func isInternal(p vpath.Path) bool { return strings.HasPrefix(string(p), internalDir+"/") }

// lockTemp takes the lock of the temporary file tmp of a write in .memotree, which
// shows other processes that its writer lives (see RemoveOrphanTemps). The returned
// function lets it go. A lock that cannot be had (a remover's probe holds it at this
// instant) is not waited for: the write goes on, and fails if its file was taken.
// On Windows a file open elsewhere cannot be renamed (Go opens files without
// FILE_SHARE_DELETE), so there the age of the file and this process's record of its
// own (see live) have to do.
func (v *Vault) lockTemp(tmp vpath.Path) (release func()) {
	if runtime.GOOS == "windows" {
		return func() {}
	}
	f, err := v.root.OpenFile(osName(tmp), os.O_RDONLY, 0)
	if err != nil {
		return func() {}
	}
	if ok, err := tryLockFile(f); err != nil || !ok {
		f.Close()
		return func() {}
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}
}

// InternalTempLive reports whether the temporary file at p, inside .memotree, may
// belong to a write in progress: this process holds it, it is younger than a minute,
// or another process holds its lock. The app writes its own files there without the
// vault lock, so the lock alone does not tell an orphan there; a file whose writer
// died (its lock free) and that is older than a minute is an orphan, however its
// clock jumped meanwhile.
func (v *Vault) InternalTempLive(p vpath.Path) bool {
	name := osName(p)
	if v.heldHere(name) {
		return true
	}
	st, err := v.root.Lstat(name)
	if err != nil {
		return false // gone: its write finished
	}
	if !st.Mode().IsRegular() || time.Since(st.ModTime()) < internalTempAge {
		return true
	}
	f, err := v.root.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	defer f.Close()
	free, err := v.probe(f)
	return err != nil || !free
}

// RemoveOrphanTemps removes the temporary files that writes interrupted by a crash
// left behind: those the walks so far found among the notes, and those in .memotree
// whose writer is gone (see InternalTempLive). It takes the lock, under which every
// write of a note creates and removes its temporary file, so one that still exists
// then is an orphan. Only files named as MemoTree names its own (IsTempName) are
// removed: a person's file that merely starts with TempPrefix stays. It returns how
// many it removed.
func (v *Vault) RemoveOrphanTemps(ctx context.Context) (int, error) {
	v.orphanMu.Lock()
	found := v.orphans
	v.orphans = nil
	v.orphanMu.Unlock()
	for p := range found {
		if !IsTempName(p.Base()) {
			delete(found, p)
		}
	}
	var internal []vpath.Path
	ents, _ := fs.ReadDir(v.root.FS(), internalDir)
	for _, e := range ents {
		if e.Type().IsRegular() && IsTempName(e.Name()) {
			internal = append(internal, vpath.Path(internalDir).Join(e.Name()))
		}
	}
	if len(found) == 0 && len(internal) == 0 {
		return 0, nil
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return 0, fmt.Errorf("remove orphaned temporary files: %w", err)
	}
	defer unlock()
	dirs := v.newBatchDirs()
	defer dirs.close()
	n := 0
	for p := range found {
		if err := dirs.remove(p); err == nil {
			n++
		}
	}
	for _, p := range internal {
		if !v.InternalTempLive(p) && dirs.remove(p) == nil {
			n++
		}
	}
	return n, nil
}
