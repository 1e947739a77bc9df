package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	fdiff "github.com/go-git/go-git/v5/plumbing/format/diff"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// FileStat counts the lines a pending change adds and deletes.
type FileStat struct {
	Path    vpath.Path `json:"path"`
	Added   int        `json:"added"`
	Deleted int        `json:"deleted"`
	Binary  bool       `json:"binary,omitempty"`
	// TooLarge says a side is over MaxDiffBytes: the patch names the file, no lines.
	TooLarge bool `json:"too_large,omitempty"`
}

// Diff returns the unified diff (three lines of context, git's format) of the working
// tree against HEAD for one path, or for every pending change when path is "". A path
// without changes gives "".
func (r *Repo) Diff(ctx context.Context, path vpath.Path) (string, error) {
	text, _, err := r.diffScope(ctx, path)
	return text, err
}

// DiffStat returns the lines added and deleted per changed path, like Diff's scope.
func (r *Repo) DiffStat(ctx context.Context, path vpath.Path) ([]FileStat, error) {
	_, stats, err := r.diffScope(ctx, path)
	return stats, err
}

// diffScope diffs one path, or every pending change when path is "".
func (r *Repo) diffScope(ctx context.Context, path vpath.Path) (string, []FileStat, error) {
	if path != "" {
		if err := checkPaths([]vpath.Path{path}); err != nil {
			return "", nil, fmt.Errorf("git diff: %w", err)
		}
		return r.DiffChanges(ctx, []Change{{Path: path}})
	}
	changes, err := r.Status(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("git diff: %w", err)
	}
	return r.DiffChanges(ctx, changes)
}

// DiffChanges returns the unified diff and the line counts of the given changes, as
// Status returned them (a rename is diffed from its From path). Paths whose content
// matches HEAD are left out.
func (r *Repo) DiffChanges(ctx context.Context, changes []Change) (string, []FileStat, error) {
	_, head, err := r.headTree()
	if err != nil {
		return "", nil, fmt.Errorf("git diff: %w", err)
	}
	stored, err := r.storedForm()
	if err != nil {
		return "", nil, fmt.Errorf("git diff: %w", err)
	}
	var ps patch
	var stats []FileStat
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return "", nil, fmt.Errorf("git diff: %w", err)
		}
		from := c.Path
		if c.From != "" {
			from = c.From
		}
		if err := checkPaths([]vpath.Path{from, c.Path}); err != nil {
			return "", nil, fmt.Errorf("git diff: %w", err)
		}
		fp, err := r.filePatch(head, from, c.Path, stored)
		if err != nil {
			return "", nil, fmt.Errorf("git diff: %w", err)
		}
		if fp != nil {
			ps = append(ps, fp)
			stats = append(stats, fp.stat())
		}
	}
	var buf bytes.Buffer
	if err := fdiff.NewUnifiedEncoder(&buf, fdiff.DefaultContextLines).Encode(ps); err != nil {
		return "", nil, fmt.Errorf("git diff: %w", err)
	}
	return buf.String(), stats, nil
}

// stat counts the lines the patch adds and deletes.
func (f *filePatch) stat() FileStat {
	s := FileStat{Path: f.path, Binary: f.binary, TooLarge: f.tooLarge}
	for _, c := range f.chunks {
		switch c.op {
		case fdiff.Add:
			s.Added += lineCount(c.text)
		case fdiff.Delete:
			s.Deleted += lineCount(c.text)
		}
	}
	return s
}

// filePatch diffs from in HEAD against to in the working tree, as stored gives its
// content to git; nil when they agree.
func (r *Repo) filePatch(head *treeReader, from, to vpath.Path, stored func(vpath.Path, []byte) []byte) (*filePatch, error) {
	old, inHead, err := head.file(from)
	if err != nil {
		return nil, err
	}
	data, onDisk, err := r.readWork(to)
	if err != nil {
		return nil, err
	}
	if onDisk {
		data = stored(to, data)
	}
	if from == to && (!inHead && !onDisk || inHead && onDisk && bytes.Equal(old.data, data)) {
		return nil, nil
	}
	fp := &filePatch{path: to}
	if inHead {
		fp.from = &file{hash: old.hash, mode: old.mode, path: string(from)}
	}
	if onDisk {
		fp.to = &file{hash: plumbing.ComputeHash(plumbing.BlobObject, data), mode: filemode.Regular, path: string(to)}
	}
	if isBinary(old.data) || isBinary(data) {
		fp.binary = true
		return fp, nil
	}
	if bytes.Equal(old.data, data) {
		return fp, nil // a pure rename: the header says it all
	}
	if len(old.data) > MaxDiffBytes || len(data) > MaxDiffBytes {
		// Line diffs of such sizes can take minutes; the stat says why no lines.
		fp.tooLarge = true
		return fp, nil
	}
	for _, d := range diff.Do(string(old.data), string(data)) {
		op := fdiff.Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = fdiff.Add
		case diffmatchpatch.DiffDelete:
			op = fdiff.Delete
		}
		fp.chunks = append(fp.chunks, chunk{text: d.Text, op: op})
	}
	return fp, nil
}

// readWork reads a working-tree file; ok is false when it does not exist.
func (r *Repo) readWork(p vpath.Path) (data []byte, ok bool, err error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, false, fmt.Errorf("open working tree: %w", err)
	}
	defer root.Close()
	data, err = regular.ReadFile(root, filepath.FromSlash(string(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", p, err)
	}
	return data, true, nil
}

// isBinary applies git's rule: a NUL byte in the first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// lineCount counts the lines of a chunk, a last line without newline included.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// patch, filePatch, file and chunk implement go-git's diff.Patch for the encoder.
type patch []*filePatch

func (p patch) FilePatches() []fdiff.FilePatch {
	out := make([]fdiff.FilePatch, len(p))
	for i, f := range p {
		out[i] = f
	}
	return out
}

func (p patch) Message() string { return "" }

type filePatch struct {
	path     vpath.Path
	from, to *file
	binary   bool
	tooLarge bool
	chunks   []chunk
}

func (f *filePatch) IsBinary() bool { return f.binary }

func (f *filePatch) Files() (from, to fdiff.File) {
	if f.from != nil {
		from = f.from
	}
	if f.to != nil {
		to = f.to
	}
	return from, to
}

func (f *filePatch) Chunks() []fdiff.Chunk {
	out := make([]fdiff.Chunk, len(f.chunks))
	for i, c := range f.chunks {
		out[i] = c
	}
	return out
}

type file struct {
	hash plumbing.Hash
	mode filemode.FileMode
	path string
}

func (f *file) Hash() plumbing.Hash     { return f.hash }
func (f *file) Mode() filemode.FileMode { return f.mode }
func (f *file) Path() string            { return f.path }

type chunk struct {
	text string
	op   fdiff.Operation
}

func (c chunk) Content() string       { return c.text }
func (c chunk) Type() fdiff.Operation { return c.op }
