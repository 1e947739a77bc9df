package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/vpath"
)

// A change whose result does not depend on what the caller saw of a file (append a
// line, merge a property, add a relation) is computed from the file as it is when it
// is written, under the vault lock, rather than from what the caller read earlier: two
// MemoTree writers then never conflict, in one process or several, and nothing is
// lost. A compare-and-swap is for a caller that did read the file and means its change
// to apply to that version only (WriteOptions.IfHash).

// maxUpdateTries bounds how often an Update reads again because a program that takes
// no lock (another editor) replaced a file between the read and the write.
const maxUpdateTries = 8

// Current is a file as an Update found it under the vault lock.
type Current struct {
	Data   []byte
	Hash   Hash
	Exists bool
}

// UpdateFunc computes the changes of an Update from the current content of the files
// it reads. It may be called more than once (see Update) and must not write itself.
type UpdateFunc func(cur map[vpath.Path]Current) ([]Change, error)

// Update reads the files at paths under the vault lock, hands them to fn, and applies
// the changes fn returns as one batch (all or nothing, as Apply), without releasing the
// lock in between, so no other MemoTree writer changes the files meanwhile. A change to
// a file Update read is made conditional on the version read (its IfHash, or
// CreateOnly for a file that did not exist) unless fn set a condition itself: if a
// program that takes no lock replaced the file meanwhile, Update reads again and calls
// fn again, up to maxUpdateTries times. An error from fn ends the Update with nothing
// written and is returned as it is. No changes write nothing and record nothing.
func (v *Vault) Update(ctx context.Context, paths []vpath.Path, fn UpdateFunc, o WriteOptions) ([]Hash, error) {
	if v.stage != nil {
		return v.stage.update(paths, fn, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("update %d files: %w", len(paths), err)
	}
	defer unlock()
	for try := 1; ; try++ {
		cur, err := v.readCurrent(paths)
		if err != nil {
			return nil, err
		}
		changes, err := fn(cur)
		if err != nil {
			return nil, err
		}
		if len(changes) == 0 {
			return nil, nil
		}
		auto := map[vpath.Path]bool{} // the files whose condition Update set on what it read
		for i := range changes {
			c := &changes[i]
			r, read := cur[c.Path]
			switch {
			case !read || c.IfHash != "" || c.CreateOnly:
			case r.Exists:
				c.IfHash, auto[c.Path] = r.Hash, true
			case !c.Delete:
				c.CreateOnly, auto[c.Path] = true, true
			}
		}
		hashes, err := v.applyLocked(ctx, changes, o)
		var pe *fs.PathError
		if (errors.Is(err, ErrConflict) || errors.Is(err, ErrExists)) && errors.As(err, &pe) && auto[vpath.Path(pe.Path)] && try < maxUpdateTries {
			continue // an editor that takes no lock saved meanwhile: read it again
		}
		return hashes, err
	}
}

// UpdateFile is Update for one file, written as Write writes it (no batch intent): fn
// gets its current content (exists false when there is none) and returns the new
// content. With o.IfHash set, the file must have that hash when it is read (a
// compare-and-swap on what the caller saw), or ErrConflict is returned without calling
// fn. The write is recorded in the journey as Write records it.
func (v *Vault) UpdateFile(ctx context.Context, p vpath.Path, fn func(cur []byte, exists bool) ([]byte, error), o WriteOptions) (Hash, error) {
	if v.stage != nil {
		return v.stage.updateFile(p, fn, o)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	defer unlock()
	op := o.Op
	if op == "" {
		op = "write"
	}
	var h Hash
	var size int
	for try := 1; ; try++ {
		cur, err := v.readCurrent([]vpath.Path{p})
		if err != nil {
			return "", fmt.Errorf("write %s: %w", p, err)
		}
		c := cur[p]
		if o.IfHash != "" && (!c.Exists || c.Hash != o.IfHash) {
			err := fmt.Errorf("write %s: %w: content hash is %.12s, not %.12s", p, ErrConflict, c.Hash, o.IfHash)
			v.journaled(ctx, v.journal(o, op, []string{string(p)}, "", err), string(p))
			return "", err
		}
		data, err := fn(c.Data, c.Exists)
		if err != nil {
			return "", err
		}
		wo := o
		if c.Exists {
			wo.IfHash = c.Hash
		} else {
			wo.IfHash, wo.CreateOnly = "", true
		}
		h, err = v.writeLocked(p, data, wo)
		if err == nil || isMade(err) {
			_ = v.settle(ctx, string(p), err) // made: a notice, not an error
			size = len(data)
			break
		}
		if (errors.Is(err, ErrConflict) || errors.Is(err, ErrExists) && !c.Exists) && try < maxUpdateTries && o.IfHash == "" {
			continue // an editor that takes no lock saved meanwhile: read it again
		}
		err = fmt.Errorf("write %s: %w", p, fsfault.Wrap(v.dir, err))
		v.journaled(ctx, v.journal(o, op, []string{string(p)}, "", err), string(p))
		return "", err
	}
	v.journaled(ctx, v.journal(o, op, []string{string(p)}, fmt.Sprintf("%d bytes", size), nil), string(p))
	return h, nil
}

// readCurrent reads the files at paths; a missing file is not an error.
func (v *Vault) readCurrent(paths []vpath.Path) (map[vpath.Path]Current, error) {
	cur := make(map[vpath.Path]Current, len(paths))
	for _, p := range paths {
		b, err := v.ReadFile(p)
		switch {
		case errors.Is(err, ErrNotFound):
			cur[p] = Current{}
		case err != nil:
			return nil, err
		default:
			cur[p] = Current{Data: b, Hash: HashOf(b), Exists: true}
		}
	}
	return cur, nil
}
