// Package doctor checks a vault the way `memotree doctor` reports on it: an
// interrupted write finished or rolled back, the undo journals of crashed change sets
// that no rollback can use (while one is there the vault refuses content writes), the
// files a rollback after a crash kept because they changed after it (the vault's
// record in .memotree), orphaned temporary files of crashed writes, notes whose front
// matter does not parse, links that resolve to nothing, names shared by several notes
// (which [[Name]] cannot tell apart), special files (named pipes, devices) that
// MemoTree will not read, and journey lines that cannot be read. With Repair it removes the orphaned temporary
// files, under the vault's write lock so that no write in progress loses its file,
// sets each damaged journal aside in .memotree/recovered/ (the journal byte for byte,
// and every pre-image it holds as a file at its path; no note is changed), and
// forgets the record of kept files (the person reviewed them).
//
// The link graph and every index are rebuilt from the files when a library opens, so
// "repairing the index" is opening it: the report's counts are those of a fresh scan.
//
// Concurrency: Check opens its own vault and library; it may run while the app or an
// MCP server works on the same folder.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Options configure Check.
type Options struct {
	// Repair removes orphaned temporary files and forgets the record of the files a
	// recovery kept (they are listed once more).
	Repair bool
	// Limit caps the examples listed per kind of problem (default 50); counts are
	// always complete.
	Limit int
}

// Report is what Check found.
type Report struct {
	Library string `json:"library"`
	Path    string `json:"path"`
	Notes   int    `json:"notes"`
	Files   int    `json:"files"`
	Links   int    `json:"links"`
	// Recovered is true when a batch of writes interrupted by a crash was finished
	// or rolled back on opening.
	Recovered bool `json:"recovered"`

	// DamagedJournals are undo journals of crashed change sets that no rollback can
	// use; while one is there the vault's content writes are refused. Repair sets
	// each aside (SetAside names where what it held was kept).
	DamagedJournals Problems[DamagedJournal] `json:"damaged_journals"`
	// RecoveryConflicts are files that a rollback after a crash kept because they
	// changed after it: the crashed change set's version of them was not put back.
	RecoveryConflicts Problems[vault.RecoveryConflict] `json:"recovery_conflicts"`
	// ConflictsForgotten says Repair forgot the record of RecoveryConflicts, listed
	// this once more.
	ConflictsForgotten bool `json:"recovery_conflicts_forgotten,omitempty"`
	// SpecialFiles are named pipes, devices and sockets in the vault: not notes,
	// never read.
	SpecialFiles   Problems[string]              `json:"special_files"`
	TempFiles      Problems[TempFile]            `json:"temp_files"`
	BrokenNotes    Problems[library.FileWarning] `json:"broken_notes"`
	BrokenLinks    Problems[BrokenLink]          `json:"broken_links"`
	DuplicateNames Problems[Duplicate]           `json:"duplicate_names"`
	JourneyErrors  Problems[string]              `json:"journey_errors"`
}

// Problems is a count and the first examples of one kind of problem.
type Problems[T any] struct {
	Count    int `json:"count"`
	Examples []T `json:"examples"`
}

func (p *Problems[T]) add(limit int, x T) {
	p.Count++
	if len(p.Examples) < limit {
		p.Examples = append(p.Examples, x)
	}
}

// DamagedJournal is an undo journal that no rollback can use, and where Repair kept
// what it held.
type DamagedJournal struct {
	vault.DamagedJournal
	// SetAside is the folder in the vault where Repair kept the journal and the
	// pre-images it holds ("" when it was not set aside).
	SetAside string `json:"set_aside,omitempty"`
}

// TempFile is a temporary file a write left behind.
type TempFile struct {
	Path    string        `json:"path"`
	Age     time.Duration `json:"age_ns"`
	Removed bool          `json:"removed"`
}

// BrokenLink is a link or relation whose target names no file.
type BrokenLink struct {
	From   vpath.Path `json:"from"`
	Target string     `json:"target"`
	Type   string     `json:"type"`
	Line   int        `json:"line,omitempty"`
}

// Duplicate is a note name (the file name without .md, case-folded as Obsidian
// compares it) that several notes share.
type Duplicate struct {
	Name  string       `json:"name"`
	Paths []vpath.Path `json:"paths"`
}

// Healthy reports whether nothing needs repair or review: no temporary file left, no
// file a recovery kept that was not reviewed, no note that does not parse, no
// unreadable journey line. Broken links (often notes not written yet), shared names
// (Obsidian resolves them by path) and special files (skipped) are reported, not
// failed.
func (r *Report) Healthy() bool {
	left := 0
	for _, t := range r.TempFiles.Examples {
		if !t.Removed {
			left++
		}
	}
	unreviewed := r.RecoveryConflicts.Count > 0 && !r.ConflictsForgotten
	for _, d := range r.DamagedJournals.Examples {
		if d.SetAside == "" {
			left++
		}
	}
	return left == 0 && !unreviewed && r.BrokenNotes.Count == 0 && r.JourneyErrors.Count == 0
}

// Check examines the vault in dir, mounted under name.
func Check(ctx context.Context, name, dir string, o Options) (*Report, error) {
	if o.Limit <= 0 {
		o.Limit = 50
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r := &Report{Library: name, Path: abs}
	v, err := vault.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("doctor: %w", err)
	}
	defer v.Close()
	if r.Recovered, err = v.Recover(ctx); err != nil {
		return nil, fmt.Errorf("doctor: finishing an interrupted write: %w", err)
	}
	if err := r.damagedJournals(ctx, v, o); err != nil {
		return nil, err
	}
	conflicts, err := v.RecoveryConflicts()
	if err != nil {
		return nil, fmt.Errorf("doctor: read the record of files kept by a recovery: %w", err)
	}
	for _, c := range conflicts {
		r.RecoveryConflicts.add(o.Limit, c)
	}
	if o.Repair && len(conflicts) > 0 {
		if err := v.ClearRecoveryConflicts(); err != nil {
			return nil, fmt.Errorf("doctor: %w", err)
		}
		r.ConflictsForgotten = true
	}
	if err := r.tempFiles(ctx, v, abs, o); err != nil {
		return nil, err
	}
	if _, bad, err := v.Journey(); err != nil {
		return nil, fmt.Errorf("doctor: read the journey: %w", err)
	} else {
		for _, b := range bad {
			r.JourneyErrors.add(o.Limit, b)
		}
	}
	lib, err := library.Open(ctx, name, abs, library.Options{KeepTemps: true})
	if err != nil {
		return nil, fmt.Errorf("doctor: %w", err)
	}
	defer lib.Close()
	g, err := lib.Graph(ctx)
	if err != nil {
		return nil, fmt.Errorf("doctor: %w", err)
	}
	st := g.Stats()
	r.Notes, r.Files, r.Links = st.Notes, st.Files, st.Links
	for _, w := range lib.Warnings() {
		r.BrokenNotes.add(o.Limit, w)
	}
	for _, e := range g.Unresolved() {
		b := BrokenLink{From: e.From, Target: e.Target, Type: e.Type}
		if e.Link != nil {
			b.Line = int(e.Link.Line)
		}
		r.BrokenLinks.add(o.Limit, b)
	}
	r.duplicates(g, o.Limit)
	return r, nil
}

// damagedJournals lists the undo journals no rollback can use and, with Repair, sets
// each aside (vault.SetAsideJournal keeps the journal and its pre-images in
// .memotree/recovered/), which lets the vault be written again.
func (r *Report) damagedJournals(ctx context.Context, v *vault.Vault, o Options) error {
	for _, d := range v.DamagedJournals() {
		x := DamagedJournal{DamagedJournal: d}
		if o.Repair {
			kept, err := v.SetAsideJournal(ctx, d.Name)
			if err != nil {
				return fmt.Errorf("doctor: %w", err)
			}
			x.SetAside = kept
		}
		r.DamagedJournals.add(o.Limit, x)
	}
	return nil
}

// tempFiles finds (and with Repair removes) the temporary files of writes that did
// not finish. The lock is held while removing, so a write of a note in progress in
// another process is never robbed of its file; one in .memotree, where the app
// writes without the lock, is an orphan only once its writer is gone
// (vault.InternalTempLive).
func (r *Report) tempFiles(ctx context.Context, v *vault.Vault, dir string, o Options) error {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // unreadable corners are not ours to judge
		}
		if d.IsDir() && p != dir {
			switch d.Name() {
			case ".git", ".obsidian", ".trash":
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && vault.IsTempName(d.Name()) { // a person's ".memotree-tmp-notes.md" is not ours
			found = append(found, p)
		}
		if t := d.Type(); t&(fs.ModeNamedPipe|fs.ModeDevice|fs.ModeCharDevice|fs.ModeSocket) != 0 {
			rel, _ := filepath.Rel(dir, p)
			r.SpecialFiles.add(o.Limit, fmt.Sprintf("%s (%s)", filepath.ToSlash(rel), kindOf(t)))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("doctor: walk %s: %w", dir, err)
	}
	if len(found) == 0 {
		return nil
	}
	sort.Strings(found)
	unlock := func() {}
	if o.Repair {
		if unlock, err = v.Lock(ctx); err != nil {
			return fmt.Errorf("doctor: take the vault lock: %w", err)
		}
	}
	defer unlock()
	now := time.Now()
	for _, p := range found {
		rel, _ := filepath.Rel(dir, p)
		t := TempFile{Path: filepath.ToSlash(rel)}
		if vp := vpath.Path(t.Path); strings.HasPrefix(t.Path, ".memotree/") && v.InternalTempLive(vp) {
			continue // the app's own file, written without the vault lock by a live writer
		}
		if fi, err := os.Lstat(p); err == nil {
			t.Age = now.Sub(fi.ModTime()).Round(time.Second)
		} else if errors.Is(err, fs.ErrNotExist) {
			continue // its write finished meanwhile
		}
		if o.Repair {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("doctor: remove %s: %w", t.Path, err)
			}
			t.Removed = true
		}
		r.TempFiles.add(len(found), t)
	}
	return nil
}

func kindOf(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "named pipe"
	case t&fs.ModeCharDevice != 0:
		return "character device"
	case t&fs.ModeDevice != 0:
		return "block device"
	}
	return "socket"
}

// duplicates lists note names that several notes share.
func (r *Report) duplicates(g *graph.Graph, limit int) {
	byName := map[string][]vpath.Path{}
	for _, p := range g.Notes() {
		k := strings.ToLower(strings.TrimSuffix(p.Base(), ".md"))
		byName[k] = append(byName[k], p)
	}
	names := make([]string, 0)
	for k, ps := range byName {
		if len(ps) > 1 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		ps := byName[k]
		sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		r.DuplicateNames.add(limit, Duplicate{Name: strings.TrimSuffix(ps[0].Base(), ".md"), Paths: ps})
	}
}
