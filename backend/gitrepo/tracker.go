package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/memotree/memotree/backend/internal/regular"
)

// Tracker keeps the status of a repository current for a running app. The watcher
// already knows which files changed, so after one full status a Tracker re-examines
// only the paths it is told about (Touch); it computes a full status again when the
// index or HEAD changed (a commit, a checkout, a git command), when a folder or an
// ignore file changed, or after Rescan.
//
// Concurrency: a Tracker is safe for concurrent use.
type Tracker struct {
	r *Repo

	mu    sync.Mutex
	snap  *snapshot
	dirty map[string]bool
	full  bool
}

// NewTracker returns a Tracker of r; its first Status is a full one.
func NewTracker(r *Repo) *Tracker {
	return &Tracker{r: r, dirty: map[string]bool{}}
}

// Repo returns the repository tracked.
func (t *Tracker) Repo() *Repo { return t.r }

// Touch records that the files at paths (slash paths relative to the vault) may
// have changed.
func (t *Tracker) Touch(paths ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range paths {
		if p == "" || p == "." || strings.HasSuffix(p, "/") || filepath.Base(p) == ".gitignore" || filepath.Base(p) == ".gitattributes" {
			t.full = true
			continue
		}
		t.dirty[p] = true
	}
}

// Rescan makes the next Status a full one.
func (t *Tracker) Rescan() {
	t.mu.Lock()
	t.full = true
	t.mu.Unlock()
}

// unwatched are the folders git reports on that the vault's watcher does not watch
// (Obsidian's settings and trash): a Tracker examines their files at every Status.
var unwatched = []string{".obsidian", ".trash"}

// touchUnwatched marks every file of the unwatched folders, on disk or in the index,
// as possibly changed; the caller holds the lock.
func (t *Tracker) touchUnwatched() {
	for _, top := range unwatched {
		for _, p := range t.snap.workUnder(top) {
			t.dirty[p] = true // what was reported there, checked again
		}
		if _, tracked := t.snap.trees.dirs[top]; !tracked && t.r.ignoredFolder(top) {
			continue // ignored as a whole, as .obsidian/ often is: nothing else to report
		}
		t.snap.trees.each(top, func(p string) { t.dirty[p] = true })
		root := filepath.Join(t.r.dir, top)
		_ = filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(t.r.dir, full)
			if err != nil {
				return nil
			}
			t.dirty[filepath.ToSlash(rel)] = true // ignore files there are read by workState
			return nil
		})
	}
}

// workUnder lists the working-tree changes of the snapshot under the folder top.
func (s *snapshot) workUnder(top string) []string {
	var out []string
	for p := range s.work {
		if strings.HasPrefix(p, top+"/") {
			out = append(out, p)
		}
	}
	return out
}

// errNeedFull says a path cannot be re-examined alone (it is a folder now).
var errNeedFull = errors.New("a full status is needed")

// Status returns the pending changes, as Repo.Status does.
func (t *Tracker) Status(ctx context.Context) ([]Change, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	if t.snap == nil || t.full || t.r.currentStamp() != t.snap.stamp {
		if err := t.refresh(ctx); err != nil {
			return nil, err
		}
	} else {
		t.touchUnwatched()
		for p := range t.dirty {
			s, err := t.r.workState(t.snap, p)
			if errors.Is(err, errNeedFull) {
				if err := t.refresh(ctx); err != nil {
					return nil, err
				}
				break
			}
			if err != nil {
				return nil, fmt.Errorf("git status: %w", err)
			}
			if s == "" {
				delete(t.snap.work, p)
			} else {
				t.snap.work[p] = s
			}
		}
		clear(t.dirty)
	}
	return t.r.changes(t.snap, t.snap.merged())
}

// ChangeSets returns the pending changes grouped by change set, as
// Repo.ChangeSets does, from the tracked status.
func (t *Tracker) ChangeSets(ctx context.Context, j Journal) ([]ChangeSet, error) {
	changes, err := t.Status(ctx)
	if err != nil {
		return nil, err
	}
	return t.r.group(changes, j), nil
}

// refresh computes a full status; the caller holds the lock.
func (t *Tracker) refresh(ctx context.Context) error {
	snap, err := t.r.snapshot(ctx)
	if err != nil {
		t.snap = nil
		return fmt.Errorf("git status: %w", err)
	}
	t.snap, t.full = snap, false
	clear(t.dirty)
	return nil
}

// workState examines one path of the working tree against the snapshot's index:
// Modified, Deleted, Untracked, or "" when it matches the index (or is ignored).
func (r *Repo) workState(snap *snapshot, p string) (State, error) {
	if !reported(p) || r.inOtherRepo(snap, p) {
		return "", nil
	}
	i, tracked := snap.byName[p]
	beyond, err := r.beyondLink(p)
	if err != nil {
		return "", err
	}
	f, err := statFile(filepath.Join(r.dir, filepath.FromSlash(p)))
	if beyond || errors.Is(err, fs.ErrNotExist) { // beyond a link: no file to git
		if _, folder := snap.trees.dirs[p]; folder {
			return "", errNeedFull // a tracked folder is gone
		}
		if tracked {
			if e := &snap.entries[i]; e.stage == 0 && !e.intentToAdd && e.mode != filemode.Submodule {
				return Deleted, nil
			}
		}
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("stat %s: %w", p, err)
	}
	if f.mode.IsDir() {
		return "", errNeedFull
	}
	if !tracked {
		if r.ignored(p) {
			return "", nil
		}
		return Untracked, nil
	}
	e := &snap.entries[i]
	switch {
	case e.stage != 0:
		return Modified, nil
	case e.mode == filemode.Submodule || unchanged(e, f, snap.indexTime, snap.rules):
		return "", nil
	}
	same, err := r.sameContent(p, e, f, snap.rules)
	if err != nil || same {
		return "", err
	}
	return Modified, nil
}

// inOtherRepo reports whether the path p lies in a submodule (a gitlink of the index)
// or in a repository nested in the vault that git does not track (an untracked folder
// with a .git of its own): git leaves their files to them, and so does Status.
func (r *Repo) inOtherRepo(snap *snapshot, p string) bool {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		d := p[:i]
		if snap.gitlink(d) {
			return true
		}
		if _, tracked := snap.trees.dirs[d]; !tracked {
			if _, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(d), ".git")); err == nil {
				return true
			}
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// ignoredFolder reports whether git ignores the folder dir, at the vault's root, as a
// whole (by .git/info/exclude or the root .gitignore).
func (r *Repo) ignoredFolder(dir string) bool {
	var patterns []gitignore.Pattern
	if b, err := regular.ReadPath(filepath.Join(r.dir, ".git", "info", "exclude")); err == nil {
		patterns = parseIgnore(b, nil)
	}
	if b, err := regular.ReadPath(filepath.Join(r.dir, ".gitignore")); err == nil {
		patterns = append(patterns, parseIgnore(b, nil)...)
	}
	return gitignore.NewMatcher(patterns).Match([]string{dir}, true)
}

// ignored reports whether git ignores the untracked file p, reading the ignore
// files on its way down from the root.
func (r *Repo) ignored(p string) bool {
	var patterns []gitignore.Pattern
	if b, err := regular.ReadPath(filepath.Join(r.dir, ".git", "info", "exclude")); err == nil {
		patterns = parseIgnore(b, nil)
	}
	parts := strings.Split(p, "/")
	for depth := range len(parts) {
		domain := parts[:depth]
		if b, err := regular.ReadPath(filepath.Join(r.dir, filepath.Join(domain...), ".gitignore")); err == nil {
			patterns = append(patterns, parseIgnore(b, domain)...)
		}
		m := gitignore.NewMatcher(patterns)
		if depth < len(parts)-1 && m.Match(parts[:depth+1], true) {
			return true // an ignored folder
		}
		if depth == len(parts)-1 {
			return m.Match(parts, false)
		}
	}
	return false
}
