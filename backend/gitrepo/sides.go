package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/vpath"
)

// Sides are the two versions a pending change compares: the file in HEAD (at its From
// path for a rename) and in the working tree.
type Sides struct {
	Old, New       []byte
	InHead, OnDisk bool
	// TooLarge says a side is over MaxDiffBytes: neither side is read.
	TooLarge bool
}

// ChangeSides reads both versions of each change, in order.
func (r *Repo) ChangeSides(ctx context.Context, changes []Change) ([]Sides, error) {
	_, head, err := r.headTree()
	if err != nil {
		return nil, fmt.Errorf("read changes: %w", err)
	}
	out := make([]Sides, len(changes))
	for i, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("read changes: %w", err)
		}
		from := c.Path
		if c.From != "" {
			from = c.From
		}
		if err := checkPaths([]vpath.Path{from, c.Path}); err != nil {
			return nil, fmt.Errorf("read changes: %w", err)
		}
		if out[i], err = r.sides(head, from, c.Path); err != nil {
			return nil, fmt.Errorf("read changes: %w", err)
		}
	}
	return out, nil
}

// sides reads from in HEAD and to in the working tree, unless either is too large.
func (r *Repo) sides(head *treeReader, from, to vpath.Path) (Sides, error) {
	var s Sides
	var oldSize int64 = -1
	if head.tree != nil {
		e, err := head.tree.FindEntry(string(from))
		switch {
		case errors.Is(err, object.ErrEntryNotFound), errors.Is(err, object.ErrDirectoryNotFound):
		case err != nil:
			return s, fmt.Errorf("read %s from HEAD: %w", from, err)
		case e.Mode.IsFile():
			if oldSize, err = r.repo.Storer.EncodedObjectSize(e.Hash); err != nil {
				return s, fmt.Errorf("read %s from HEAD: %w", from, err)
			}
		}
	}
	full := filepath.Join(r.dir, filepath.FromSlash(string(to)))
	fi, err := os.Lstat(full)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("stat %s: %w", to, err)
	}
	// git keeps files and symbolic links (as their target); a folder, a named pipe or
	// a device is no version of the file.
	link := err == nil && fi.Mode()&os.ModeSymlink != 0
	s.InHead, s.OnDisk = oldSize >= 0, err == nil && (fi.Mode().IsRegular() || link)
	if oldSize > MaxDiffBytes || s.OnDisk && fi.Size() > MaxDiffBytes {
		s.TooLarge = true
		return s, nil
	}
	if s.InHead {
		b, _, err := head.file(from)
		if err != nil {
			return s, err
		}
		s.Old = b.data
	}
	switch {
	case link:
		t, err := os.Readlink(full)
		if err != nil {
			return s, fmt.Errorf("read link %s: %w", to, err)
		}
		s.New = []byte(filepath.ToSlash(t))
	case s.OnDisk:
		if s.New, s.OnDisk, err = r.readWork(to); err != nil {
			return s, err
		}
	}
	return s, nil
}

// LineStat counts the lines a change from old to cur adds and deletes, as a unified
// diff of the two would.
func LineStat(old, cur string) (added, deleted int) {
	for _, d := range diff.Do(old, cur) {
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			added += lineCount(d.Text)
		case diffmatchpatch.DiffDelete:
			deleted += lineCount(d.Text)
		}
	}
	return added, deleted
}
