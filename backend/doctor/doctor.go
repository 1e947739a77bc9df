// Package doctor checks a vault the way `memotree doctor` reports on it: a batch of
// writes a crash interrupted, finished, orphaned temporary files of crashed writes,
// notes whose front matter does not parse, links that resolve to nothing, names
// shared by several notes (which [[Name]] cannot tell apart), special files (named
// pipes, devices) that MemoTree will not read, journey lines that cannot be read,
// undo journals an older MemoTree left in .memotree (see OldJournals), and, as
// warnings, the files that would not survive the vault's checkout on Windows or
// macOS: paths that differ only in case (one file there) and paths Windows cannot
// hold (reserved names, characters it refuses, a trailing dot or space, 260
// characters or more under a typical vault folder there; see backend/portable). With
// Repair it removes the orphaned temporary files, under the vault's write lock so
// that no write in progress loses its file.
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
	// Repair removes orphaned temporary files.
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
	// Recovered is true when a batch of writes interrupted by a crash was finished on
	// opening.
	Recovered bool `json:"recovered"`

	// OldJournals are the undo journals (.memotree/undo-*.log) an older MemoTree left
	// when a script it ran was interrupted by a crash. MemoTree no longer uses them:
	// the notes a journal names may hold part of that script's changes, and the
	// journal holds their earlier versions, for the person to compare and then delete
	// it. Repair leaves them.
	OldJournals Problems[string] `json:"old_undo_journals"`
	// SpecialFiles are named pipes, devices and sockets in the vault: not notes,
	// never read.
	SpecialFiles   Problems[string]              `json:"special_files"`
	TempFiles      Problems[TempFile]            `json:"temp_files"`
	BrokenNotes    Problems[library.FileWarning] `json:"broken_notes"`
	BrokenLinks    Problems[BrokenLink]          `json:"broken_links"`
	DuplicateNames Problems[Duplicate]           `json:"duplicate_names"`
	JourneyErrors  Problems[string]              `json:"journey_errors"`
	// CaseClashes are files whose paths differ only in case or Unicode form: one
	// file on Windows and macOS. WindowsPaths are files whose paths Windows refuses
	// (reserved names, characters, a trailing dot or space) or that are too long
	// there under WindowsRoot. Both are warnings, not failures.
	CaseClashes  Problems[CaseClash]   `json:"case_clashes"`
	WindowsPaths Problems[WindowsPath] `json:"windows_paths"`
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
// Healthy reports whether nothing needs repair or review: no temporary file left, no
// older MemoTree's undo journal, no note that does not parse, no unreadable journey
// line. Broken links (often notes not written yet), shared names (Obsidian resolves
// them by path), special files (skipped), and paths that Windows or macOS would not
// keep apart or Windows cannot hold are reported, not failed.
func (r *Report) Healthy() bool {
	left := 0
	for _, t := range r.TempFiles.Examples {
		if !t.Removed {
			left++
		}
	}
	return left == 0 && r.OldJournals.Count == 0 && r.BrokenNotes.Count == 0 && r.JourneyErrors.Count == 0
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
	if err := r.oldJournals(abs, o); err != nil {
		return nil, err
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
	r.portability(g.Files(), WindowsRoot(abs), o.Limit)
	return r, nil
}

// oldJournals lists the undo journals an older MemoTree left in .memotree (see
// Report.OldJournals). A .memotree that is not a folder (a link, a named pipe) holds
// none of MemoTree's.
func (r *Report) oldJournals(dir string, o Options) error {
	internal := filepath.Join(dir, ".memotree")
	if st, err := os.Lstat(internal); err != nil || !st.IsDir() {
		return nil
	}
	ents, err := os.ReadDir(internal)
	if err != nil {
		return fmt.Errorf("doctor: list .memotree: %w", err)
	}
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, "undo-") && strings.HasSuffix(n, ".log") {
			r.OldJournals.add(o.Limit, ".memotree/"+n)
		}
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
