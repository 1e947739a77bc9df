package gitrepo

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/vpath"
)

// Sides are the two versions a pending change compares: the file in HEAD (at its From
// path for a rename) and in the working tree, as git would store it (its CRLF line
// breaks made LF where core.autocrlf or the attributes say so, see eol.go), so that
// the two compare as git compares them: a one-line edit of a CRLF note is one line.
type Sides struct {
	Old, New       []byte
	InHead, OnDisk bool
	// TooLarge says a side is over MaxDiffBytes: neither side is read.
	TooLarge bool
}

// ChangeSides reads both versions of each change, in order. The files are read on
// every core: HEAD's entries are looked up first, one at a time (go-git's trees are
// not safe for concurrent use), then loose blobs and working files in parallel.
func (r *Repo) ChangeSides(ctx context.Context, changes []Change) ([]Sides, error) {
	_, head, err := r.headTree()
	if err != nil {
		return nil, fmt.Errorf("read changes: %w", err)
	}
	olds := make([]headFile, len(changes))
	for i, c := range changes {
		from := c.Path
		if c.From != "" {
			from = c.From
		}
		if err := checkPaths([]vpath.Path{from, c.Path}); err != nil {
			return nil, fmt.Errorf("read changes: %w", err)
		}
		if olds[i], err = head.entry(from); err != nil {
			return nil, fmt.Errorf("read changes: %w", err)
		}
	}
	stored, err := r.storedForm()
	if err != nil {
		return nil, fmt.Errorf("read changes: %w", err)
	}
	out := make([]Sides, len(changes))
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errMu   sync.Mutex
		firstEr error
		goGit   sync.Mutex // go-git's object storage, for blobs that are not loose
	)
	for range min(len(changes), max(1, runtime.GOMAXPROCS(0))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(changes) || ctx.Err() != nil {
					return
				}
				s, err := r.sides(olds[i], changes[i].Path, stored, &goGit)
				if err != nil {
					errMu.Lock()
					firstEr = cmp.Or(firstEr, fmt.Errorf("read changes: %w", err))
					errMu.Unlock()
					return
				}
				out[i] = s
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read changes: %w", err)
	}
	if firstEr != nil {
		return nil, firstEr
	}
	return out, nil
}

// headFile is a file's entry in HEAD: found says HEAD holds a file (or a link) there.
type headFile struct {
	path  vpath.Path
	hash  plumbing.Hash
	found bool
}

// entry looks p up in HEAD's tree.
func (t *treeReader) entry(p vpath.Path) (headFile, error) {
	hf := headFile{path: p}
	if t.tree == nil {
		return hf, nil
	}
	e, err := t.tree.FindEntry(string(p))
	switch {
	case errors.Is(err, object.ErrEntryNotFound), errors.Is(err, object.ErrDirectoryNotFound):
	case err != nil:
		return hf, fmt.Errorf("read %s from HEAD: %w", p, err)
	case e.Mode.IsFile():
		hf.hash, hf.found = e.Hash, true
	}
	return hf, nil
}

// sides reads old from HEAD and to in the working tree, as stored gives its content
// to git, unless either is too large. goGit guards go-git's storage, read for a blob
// that is not loose (and by stored, for the index's copy of a file with CRLF).
func (r *Repo) sides(old headFile, to vpath.Path, stored func(vpath.Path, []byte) []byte, goGit *sync.Mutex) (Sides, error) {
	var s Sides
	full := filepath.Join(r.dir, filepath.FromSlash(string(to)))
	fi, err := os.Lstat(full)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("stat %s: %w", to, err)
	}
	// git keeps files and symbolic links (as their target); a folder, a named pipe or
	// a device is no version of the file.
	link := err == nil && fi.Mode()&os.ModeSymlink != 0
	s.InHead, s.OnDisk = old.found, err == nil && (fi.Mode().IsRegular() || link)
	limit := int64(MaxDiffBytes)
	if s.OnDisk && fi.Size() > MaxDiffBytes {
		limit = -1 // too large whatever HEAD holds: its blob is not read
	}
	if s.InHead {
		data, size, err := r.headBlob(old, limit, goGit)
		if err != nil {
			return s, err
		}
		if size > MaxDiffBytes || limit < 0 {
			s.TooLarge = true
			return s, nil
		}
		s.Old = data
	}
	if s.OnDisk && fi.Size() > MaxDiffBytes {
		s.TooLarge = true
		return s, nil
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
		if bytes.IndexByte(s.New, '\r') >= 0 {
			goGit.Lock()
			s.New = stored(to, s.New)
			goGit.Unlock()
		}
	}
	return s, nil
}

// headBlob returns the size of HEAD's blob for old, and its content when the size is
// at most limit (nothing is read for a negative limit but the size).
func (r *Repo) headBlob(old headFile, limit int64, goGit *sync.Mutex) ([]byte, int64, error) {
	data, size, ok, err := r.looseBlob(old.hash, max(limit, 0))
	if err != nil {
		return nil, 0, fmt.Errorf("read %s from HEAD: %w", old.path, err)
	}
	if ok {
		if limit < 0 {
			data = nil
		}
		return data, size, nil
	}
	goGit.Lock()
	defer goGit.Unlock()
	if size, err = r.repo.Storer.EncodedObjectSize(old.hash); err != nil {
		return nil, 0, fmt.Errorf("read %s from HEAD: %w", old.path, err)
	}
	if size > limit {
		return nil, size, nil
	}
	obj, err := r.repo.Storer.EncodedObject(plumbing.BlobObject, old.hash)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s from HEAD: %w", old.path, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("read %s from HEAD: %w", old.path, err)
	}
	defer rd.Close()
	if data, err = io.ReadAll(rd); err != nil {
		return nil, 0, fmt.Errorf("read %s from HEAD: %w", old.path, err)
	}
	return data, size, nil
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
