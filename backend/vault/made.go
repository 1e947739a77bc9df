package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/notice"
	"github.com/memotree/memotree/backend/vpath"
)

// madeError says a change was made (renamed into place, visible to every reader) but
// what followed it failed: the sync that makes it survive a power cut, removing a
// temporary name. The operation reports success, with the error as a notice.
type madeError struct{ err error }

func (e *madeError) Error() string { return "made, but " + e.err.Error() }
func (e *madeError) Unwrap() error { return e.err }

func made(err error) error { return &madeError{err} }

// isMade reports whether err says the change was made (see madeError).
func isMade(err error) bool {
	var m *madeError
	return errors.As(err, &m)
}

// settle turns the error of an operation on subject into what its caller sees: a
// change that was made is a success, whose trouble goes to ctx's notices; a disk
// fault names the vault's folder (fsfault.Wrap).
func (v *Vault) settle(ctx context.Context, subject string, err error) error {
	if err == nil {
		return nil
	}
	if isMade(err) {
		v.warn(ctx, fmt.Sprintf("%s was saved, but %v", subject, errors.Unwrap(err)))
		return nil
	}
	return fsfault.Wrap(v.dir, err)
}

// journaled reports a failed journey record of a change that was made as a notice
// of ctx: the change stands (a retry would make it twice), the journey misses it.
func (v *Vault) journaled(ctx context.Context, jerr error, subject string) {
	if jerr == nil {
		return
	}
	msg := fmt.Sprintf("%s was saved, but the journey (journey.yaml) could not record it: %v", subject, jerr)
	if a := fsfault.Advice(fsfault.Wrap(v.dir, jerr)); a != "" {
		msg += "; " + a
	}
	if !notice.Add(ctx, "%s", msg) {
		v.warn(ctx, msg)
	}
}

// makeDirs creates the folder d and the missing folders above it, through dirs (no
// symbolic link is followed: d is a resolved path), and returns those it created, in
// the order created, so that a failed write can remove them again.
func (v *Vault) makeDirs(dirs *batchDirs, d vpath.Path) ([]vpath.Path, error) {
	var missing []vpath.Path
	for p := d; p != ""; p = p.Dir() {
		mode, err := dirs.lstat(p)
		if err == nil && mode&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("create folder %s: %w", d, linkInWay(p))
		}
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("create folder %s: %w", d, mapErr(err))
		}
		missing = append(missing, p)
	}
	var created []vpath.Path
	for i := len(missing) - 1; i >= 0; i-- {
		p := missing[i]
		err := fsfault.Check("mkdir", string(p))
		if err == nil {
			err = dirs.mkdir(p, 0o755)
		}
		if errors.Is(err, fs.ErrExist) {
			continue // made by someone else meanwhile
		}
		if err != nil {
			v.removeDirs(dirs, created)
			return nil, fmt.Errorf("create folder %s: %w", p, mapErr(err))
		}
		created = append(created, p)
	}
	return created, nil
}

// removeDirs removes the folders made (in the order created) if they are empty.
func (v *Vault) removeDirs(dirs *batchDirs, made []vpath.Path) {
	for i := len(made) - 1; i >= 0; i-- {
		_ = dirs.remove(made[i])
	}
}
