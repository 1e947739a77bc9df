package gitrepo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/memotree/memotree/backend/internal/regular"
)

// The working tree against the index, the way git does it: a file whose size,
// modification and change times and inode match its index entry is unchanged without being read; only the
// others are hashed. Untracked files are what the walk finds and the index lacks,
// minus what .gitignore files and .git/info/exclude ignore; an ignored folder is not
// entered.

// workFile is one file of the working tree with the stat data git compares.
type workFile struct {
	size  int64
	mtime unixTime
	ctime unixTime // zero where the platform does not give it
	ino   uint64
	mode  fs.FileMode
}

// unixTime is a time as seconds and nanoseconds, as stat and the index give it.
type unixTime struct{ sec, nsec int64 }

// walkWork compares the working tree with the index. It returns Modified for tracked
// files whose content differs, Deleted for tracked files gone, and Untracked for
// files the index lacks and git does not ignore; content paths only. Folders are
// read in parallel (stat calls dominate, as in git's preload-index); each carries
// the ignore patterns of its ancestors, so a folder's patterns never leak to its
// siblings.
func (r *Repo) walkWork(ctx context.Context, snap *snapshot) (map[string]State, error) {
	entries, byName, t, indexTime := snap.entries, snap.byName, snap.trees, snap.indexTime
	seen := make([]bool, len(entries)) // each element written by one goroutine only
	var base []gitignore.Pattern
	if b, err := regular.ReadPath(filepath.Join(r.dir, ".git", "info", "exclude")); err == nil {
		base = parseIgnore(b, nil)
	}
	type task struct {
		dir      string // slash path, "" for the root
		patterns []gitignore.Pattern
	}
	var (
		mu       sync.Mutex
		out      = map[string]State{}
		firstErr error
		wg       sync.WaitGroup
		pending  sync.WaitGroup // folders queued and not yet read
	)
	fail := func(err error) {
		mu.Lock()
		firstErr = cmp.Or(firstErr, err)
		mu.Unlock()
	}
	tasks := make(chan task, 1024)
	var visit func(t task)
	visit = func(tk task) {
		defer pending.Done()
		if ctx.Err() != nil {
			return
		}
		dir, err := readFolder(filepath.Join(r.dir, filepath.FromSlash(tk.dir)))
		if err != nil {
			if tk.dir == "" || !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
				fail(fmt.Errorf("read folder %q: %w", tk.dir, err))
			}
			return // a folder gone since listed, or unreadable: skipped, as git does
		}
		defer dir.release()
		var domain []string
		if tk.dir != "" {
			domain = strings.Split(tk.dir, "/")
		}
		patterns := tk.patterns
		_, trackedDir := t.dirs[tk.dir]
		for i := range dir.ents {
			if tk.dir != "" && !trackedDir && string(dir.name(i)) == ".git" {
				return // a repository nested in the vault: git reports nothing in it
			}
			if string(dir.name(i)) == ".gitignore" && dir.typeOf(i).IsRegular() {
				if b, err := regular.ReadPath(filepath.Join(r.dir, filepath.FromSlash(tk.dir), ".gitignore")); err == nil {
					patterns = append(patterns[:len(patterns):len(patterns)], parseIgnore(b, domain)...)
				}
			}
		}
		m := gitignore.NewMatcher(patterns)
		var local map[string]State
		note := func(p string, s State) {
			if local == nil {
				local = map[string]State{}
			}
			local[strings.Clone(p)] = s
		}
		ignored := func(name []byte, isDir bool) bool {
			return m.Match(append(domain[:len(domain):len(domain)], string(name)), isDir)
		}
		// key holds each entry's slash path; p views it without a copy for lookups and
		// is cloned only where it is kept (a changed file, a folder to read).
		key := make([]byte, 0, len(tk.dir)+64)
		var subdirs []string
		for i := range dir.ents {
			name := dir.name(i)
			key = key[:0]
			if tk.dir != "" {
				key = append(append(key, tk.dir...), '/')
			}
			key = append(key, name...)
			p := unsafe.String(unsafe.SliceData(key), len(key))
			typ := dir.typeOf(i)
			if typ.IsDir() {
				if j, ok := byName[p]; ok && entries[j].mode == filemode.Submodule {
					seen[j] = true // a submodule: its files are its own repository's
					continue
				}
				_, tracked := t.dirs[p]
				if reportedIn(tk.dir, name) && (tracked || !ignored(name, true)) {
					subdirs = append(subdirs, strings.Clone(p))
				}
				continue
			}
			if typ&^fs.ModeSymlink != 0 || !reportedIn(tk.dir, name) {
				continue // not a file or a link, or not content
			}
			j, tracked := byName[p]
			if !tracked {
				if !ignored(name, false) {
					note(p, Untracked)
				}
				continue
			}
			ie := &entries[j]
			if ie.stage != 0 || ie.mode == filemode.Submodule {
				seen[j] = true
				continue
			}
			wf, ok := dir.stat(i)
			if !ok {
				continue // gone since listed: unseen, so it shows as deleted
			}
			seen[j] = true
			if unchanged(ie, wf, indexTime, snap.rules) {
				continue
			}
			same, err := r.sameContent(p, ie, wf, snap.rules)
			if err != nil {
				fail(err)
				return
			}
			if !same {
				note(p, Modified)
			}
		}
		if local != nil {
			mu.Lock()
			for p, s := range local {
				out[p] = s
			}
			mu.Unlock()
		}
		for _, d := range subdirs {
			pending.Add(1)
			select {
			case tasks <- task{dir: d, patterns: patterns}:
			default: // the queue is full: read it here rather than block a worker
				visit(task{dir: d, patterns: patterns})
			}
		}
	}
	pending.Add(1)
	tasks <- task{patterns: base}
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tk := range tasks {
				visit(tk)
			}
		}()
	}
	pending.Wait()
	close(tasks)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range entries {
		if e := &entries[i]; !seen[i] && e.stage == 0 && !e.intentToAdd && reported(e.name) {
			if e.mode != filemode.Submodule {
				out[e.name] = Deleted
			}
		}
	}
	return out, nil
}

// parseIgnore reads the patterns of an ignore file in the folder domain.
func parseIgnore(b []byte, domain []string) []gitignore.Pattern {
	var out []gitignore.Pattern
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// emptyBlob is the hash of the empty file, the one content an index entry of size 0
// may hold without having been smudged.
var emptyBlob = plumbing.ComputeHash(plumbing.BlobObject, nil)

// unchanged reports whether the working-tree file matches its index entry by stat
// data alone, compared as git compares them (32-bit fields). An entry modified in the
// second the index was written, or later, is "racily clean" and its file must be
// hashed, as git does: git compares those times in whole seconds unless built with
// USE_NSEC (Git for Windows is, Debian's git is not), so a finer comparison would
// trust an entry git hashes, and this one hashes a little more than a git with it. An entry of size 0 that does not hold the empty
// file was smudged by an index write (git's ce_smudge_racily_clean_entry: the file
// may differ from it) and is hashed too, as git's ce_match_stat_basic has it.
func unchanged(e *ientry, f workFile, indexTime time.Time, rules *workRules) bool {
	if e.size == 0 && e.hash != emptyBlob {
		return false
	}
	if uint32(f.size) != e.size || uint32(f.mtime.sec) != e.mtimeS || uint32(f.mtime.nsec) != e.mtimeN || !modeMatches(e.mode, f.mode, rules) {
		return false
	}
	if e.ino != 0 && f.ino != 0 && uint32(f.ino) != e.ino {
		return false
	}
	if f.ctime != (unixTime{}) && (e.ctimeS != 0 || e.ctimeN != 0) &&
		(uint32(f.ctime.sec) != e.ctimeS || uint32(f.ctime.nsec) != e.ctimeN) {
		return false // git compares the change time too (core.trustctime)
	}
	return f.mtime.sec < indexTime.Unix()
}

// modeMatches reports whether a working-tree file's type and executable bit are
// those of the index entry, as git's ie_match_stat has it: the bit (the owner's) only
// where git trusts it (core.fileMode), and a plain file is a link's stand-in where git
// makes no links (core.symlinks false).
func modeMatches(m filemode.FileMode, fm fs.FileMode, rules *workRules) bool {
	switch {
	case fm&fs.ModeSymlink != 0:
		return m == filemode.Symlink
	case fm.IsRegular() && m == filemode.Symlink:
		return !rules.symlinks
	case fm.IsRegular() && !rules.execBit:
		return m == filemode.Regular || m == filemode.Executable
	case fm.IsRegular():
		if fm&0o100 != 0 {
			return m == filemode.Executable
		}
		return m == filemode.Regular
	}
	return false
}

// sameContent hashes the working-tree file at p as git would store it (its line
// endings converted where git converts them) and compares it with the index entry.
func (r *Repo) sameContent(p string, e *ientry, f workFile, rules *workRules) (bool, error) {
	if !modeMatches(e.mode, f.mode, rules) {
		return false, nil
	}
	full := filepath.Join(r.dir, filepath.FromSlash(p))
	var data []byte
	var err error
	if f.mode&fs.ModeSymlink != 0 {
		var t string
		t, err = os.Readlink(full)
		data = []byte(filepath.ToSlash(t))
	} else {
		data, err = regular.ReadPath(full)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", p, err)
	}
	if uint32(len(data)) != e.size && e.size != 0 {
		return false, nil
	}
	if f.mode.IsRegular() {
		data = rules.toGit(p, data, func() []byte { return r.blobOrNil(e.hash) })
	}
	return plumbing.ComputeHash(plumbing.BlobObject, data) == e.hash, nil
}
