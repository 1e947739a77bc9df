package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Hunks: the one place a pending change is cut into numbered hunks (DiffText, from
// the file in HEAD and the working-tree file as git would store it), for the window's
// review and the tools alike, and where chosen hunks are put back.

// Errors of UndoHunks.
var (
	// ErrStale means the file changed since the diff whose hunk numbers were given
	// (or while the undo was written): nothing was written; diff it again.
	ErrStale = errors.New("the note changed since its diff was made")
	// ErrNoHunk means a hunk number the file's diff does not have.
	ErrNoHunk = errors.New("no such hunk")
	// ErrWholeOnly means the change cannot be undone hunk by hunk: a new or deleted
	// file, a binary one or one too large to diff; discard it whole.
	ErrWholeOnly = errors.New("undone whole only")
)

// OpUndoHunks is the journey's operation for a write that puts hunks back. It does not
// take the file from the change set it was in: what is left of the change stays
// there (see latestEntries).
const OpUndoHunks = vault.OpUndoHunks

// FileDiff compares a change's file in HEAD (its From path for a rename) with the
// working tree as git would store it, line by line with three lines of context, and
// word by word within changed lines; its hunks are numbered from 1.
func (r *Repo) FileDiff(ctx context.Context, c Change) (FileDiff, error) {
	out, err := r.FileDiffs(ctx, []Change{c})
	if err != nil {
		return FileDiff{}, err
	}
	return out[0], nil
}

// FileDiffs is FileDiff for several changes, reading HEAD's tree and the line-ending
// rules once.
func (r *Repo) FileDiffs(ctx context.Context, changes []Change) ([]FileDiff, error) {
	rd, err := r.sidesReader()
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	out := make([]FileDiff, len(changes))
	for i, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		s, err := rd.read(c)
		if err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		out[i] = s.diff()
	}
	return out, nil
}

// hunkSides are the two versions of a change that its hunks compare.
type hunkSides struct {
	change         Change
	old            []byte // in HEAD, at the change's From path for a rename
	inHead, onDisk bool
	work           []byte // the working-tree file as written
	cur            []byte // work as git would store it (CRLF made LF where git converts)
}

// sidesReader reads hunkSides with HEAD's tree and the line-ending rules read once.
type sidesReader struct {
	r      *Repo
	head   *treeReader
	stored func(vpath.Path, []byte) []byte
}

func (r *Repo) sidesReader() (*sidesReader, error) {
	_, head, err := r.headTree()
	if err != nil {
		return nil, err
	}
	stored, err := r.storedForm()
	if err != nil {
		return nil, err
	}
	return &sidesReader{r: r, head: head, stored: stored}, nil
}

// read reads both sides of c.
func (s *sidesReader) read(c Change) (hunkSides, error) {
	from := c.Path
	if c.From != "" {
		from = c.From
	}
	if err := checkPaths([]vpath.Path{from, c.Path}); err != nil {
		return hunkSides{}, err
	}
	old, inHead, err := s.head.file(from)
	if err != nil {
		return hunkSides{}, err
	}
	work, onDisk, err := s.r.readWork(c.Path)
	if err != nil {
		return hunkSides{}, err
	}
	cur := work
	if onDisk {
		cur = s.stored(c.Path, work)
	}
	return hunkSides{change: c, old: old.data, inHead: inHead, onDisk: onDisk, work: work, cur: cur}, nil
}

// diff makes the FileDiff of the sides.
func (s hunkSides) diff() FileDiff {
	out := FileDiff{Path: s.change.Path, From: s.change.From, Hunks: []Hunk{}}
	if s.onDisk {
		out.Base = string(vault.HashOf(s.work))
	}
	switch {
	case isBinary(s.old) || isBinary(s.cur):
		out.Binary = true
		return out
	case len(s.old) > MaxDiffBytes || len(s.cur) > MaxDiffBytes:
		out.TooLarge = true
		return out
	}
	out.Hunks = DiffText(string(s.old), string(s.cur), 3)
	out.HunkUndo = s.inHead && s.onDisk && len(out.Hunks) > 0
	if s.change.Path.IsNote() {
		frontMatterHunks(out.Hunks, s.old, s.cur)
	}
	for _, h := range out.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case Add:
				out.Added++
			case Del:
				out.Deleted++
			}
		}
	}
	return out
}

// HunkUndo says which hunks of a pending change to put back as they are in HEAD, and
// who asks.
type HunkUndo struct {
	// Change is the pending change (its From path for a rename: HEAD's side is read
	// there, the working-tree file at Path is written).
	Change Change
	// Hunks are the numbers of the hunks to undo, as FileDiff numbers them.
	Hunks []int
	// Base is the FileDiff's Base the numbers were read from: the undo fails with
	// ErrStale, writing nothing, when the file is no longer that version. "" takes the
	// file as it is now.
	Base string
	// Actor, Turn and Session are recorded in the journey for the write (its operation
	// is OpUndoHunks).
	Actor, Turn, Session string
}

// HunkUndone is what UndoHunks did: the hunks it put back, as they were, and the
// change's diff after (its remaining hunks, numbered again from 1).
type HunkUndone struct {
	Undone []Hunk   `json:"undone"`
	Diff   FileDiff `json:"diff"`
}

// UndoHunks puts the chosen hunks of a pending change back as they are in HEAD, in
// the working tree only, and leaves the rest of the change pending. The write is a
// compare-and-swap against the file the hunks were computed from: a file changed
// meanwhile (by an editor saving it, say) is never overwritten; the undo fails with
// ErrStale and the caller diffs again. Line endings, a byte order mark and a missing
// final line break are kept as they are in the lines not undone; the lines put back
// are HEAD's, with CRLF where git converts the file's line endings.
func (r *Repo) UndoHunks(ctx context.Context, o HunkUndo) (HunkUndone, error) {
	fail := func(err error) (HunkUndone, error) {
		return HunkUndone{}, fmt.Errorf("git undo hunks of %s: %w", o.Change.Path, err)
	}
	if len(o.Hunks) == 0 {
		return fail(fmt.Errorf("%w: no hunk named", ErrNoHunk))
	}
	rd, err := r.sidesReader()
	if err != nil {
		return fail(err)
	}
	s, err := rd.read(o.Change)
	if err != nil {
		return fail(err)
	}
	if o.Base != "" && (!s.onDisk || string(vault.HashOf(s.work)) != o.Base) {
		return fail(ErrStale)
	}
	d := s.diff()
	if !d.HunkUndo {
		return fail(ErrWholeOnly)
	}
	chosen := map[int]bool{}
	var undone []Hunk
	for _, n := range o.Hunks {
		if n < 1 || n > len(d.Hunks) {
			return fail(fmt.Errorf("%w: hunk %d of %d", ErrNoHunk, n, len(d.Hunks)))
		}
		if !chosen[n] {
			chosen[n] = true
			undone = append(undone, d.Hunks[n-1])
		}
	}
	slices.SortFunc(undone, func(a, b Hunk) int { return a.Number - b.Number })
	next := revertHunks(d.Hunks, chosen, s.work, !bytes.Equal(s.work, s.cur))
	if r.beforeHunkWrite != nil {
		r.beforeHunkWrite()
	}
	ch := vault.Change{Path: o.Change.Path, Data: next, IfHash: vault.HashOf(s.work)}
	wo := vault.WriteOptions{Actor: o.Actor, Op: OpUndoHunks, Turn: o.Turn, Session: o.Session}
	if _, err := r.w.Apply(ctx, []vault.Change{ch}, wo); err != nil {
		if errors.Is(err, vault.ErrConflict) {
			return fail(fmt.Errorf("%w: %w", ErrStale, err))
		}
		return fail(err)
	}
	after, err := r.FileDiff(ctx, o.Change)
	if err != nil {
		return HunkUndone{Undone: undone}, err
	}
	return HunkUndone{Undone: undone, Diff: after}, nil
}

// revertHunks returns the working-tree text work with the chosen hunks put back: each
// chosen hunk's working-tree lines are replaced by its HEAD lines. Lines outside the
// chosen hunks keep their bytes exactly (the hunks' line numbers index work's lines,
// which converting line endings does not change). crlf says git converts the file's
// line endings: the lines put back then end in CRLF, as git would check them out.
func revertHunks(hunks []Hunk, chosen map[int]bool, work []byte, crlf bool) []byte {
	lines := rawLines(string(work))
	var b bytes.Buffer
	next := 1 // the next working-tree line to copy
	for _, h := range hunks {
		if !chosen[h.Number] {
			continue
		}
		if h.NewLines > 0 {
			for ; next < h.NewStart; next++ {
				b.WriteString(lines[next-1])
			}
			next = h.NewStart + h.NewLines
		}
		for _, l := range h.Lines {
			switch l.Kind {
			case Context:
				b.WriteString(lines[l.New-1])
			case Del:
				if crlf && !l.NoNewline && !bytes.HasSuffix([]byte(l.raw), []byte("\r\n")) {
					b.WriteString(l.raw[:len(l.raw)-1] + "\r\n")
				} else {
					b.WriteString(l.raw)
				}
			}
		}
	}
	for ; next <= len(lines); next++ {
		b.WriteString(lines[next-1])
	}
	return b.Bytes()
}
