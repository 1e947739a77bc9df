package gitrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Racily clean entries (git's Documentation/technical/racy-git.txt). git trusts an
// index entry whose stat data matches its file, except when the entry's modification
// time is not older than the index file's own: the file may have changed after its
// stat data was taken, within the same tick of the clock, and git then compares the
// content. git compares those times, and the stat data, in whole seconds unless built
// with USE_NSEC (Git for Windows is, Debian's git is not), so a file rewritten with the
// same size in the second its entry was written looks unchanged by stat data alone.
// Judging by whole seconds here covers both kinds of git: it checks a few more entries.
//
// Once a newer index is written, the entry is no longer racy and would be trusted: so
// whoever writes an index first checks each entry that was racy with respect to the
// index it read, and when the file's content differs from the entry "smudges" it
// (git's ce_smudge_racily_clean_entry), setting the size it records to 0, which no
// stat of a non-empty file matches; git and Status then hash the file again. Every
// index MemoTree writes keeps that promise (spliceIndex, setEntries, Repo.setEntries);
// the entries it writes anew hold the content read after their stat data was taken.

// racyCheck finds, among the entries an index write keeps, those to smudge.
type racyCheck struct {
	// since is the second from which an entry is racy: that of the index read, or the
	// present one if that is earlier (an index from the future), so that the entries
	// racy with respect to the index about to be written are checked too.
	since int64
	// stale reports whether a racy entry's file differs from it and must be smudged.
	stale func(e *ientry) bool
}

// racyCheck returns the check of the entries kept from the index at indexFile; it
// must be called before that index is read, so that an index replaced in between
// is judged by the older, earlier time (more entries checked, none missed).
func (r *Repo) racyCheck(indexFile string) *racyCheck {
	since := time.Now().Unix()
	if fi, err := os.Stat(indexFile); err == nil {
		since = min(since, fi.ModTime().Unix())
	}
	rules := sync.OnceValues(r.workRules)
	return &racyCheck{since: since, stale: func(e *ientry) bool {
		w, err := rules()
		if err != nil {
			return true // the content cannot be judged: smudging is always safe
		}
		return r.staleEntry(e, w)
	}}
}

// racy reports whether an entry modified at the second mtime is racily clean.
func (c *racyCheck) racy(mtime uint32) bool {
	return c != nil && int64(mtime) >= c.since
}

// smudge reports whether the entry e, kept as it is from the index read, must be
// written with its size set to 0.
func (c *racyCheck) smudge(e *ientry) bool {
	return c.racy(e.mtimeS) && e.stage == 0 && e.size != 0 && e.mode != filemode.Submodule &&
		!e.intentToAdd && !e.skipWorktree && c.stale(e)
}

// smudgeEntries smudges the racily clean entries of a decoded index that differ from
// their files; each of entries is one kept from the index read.
func (c *racyCheck) smudgeEntries(entries []*index.Entry) {
	if c == nil {
		return
	}
	for _, e := range entries {
		if s, _ := unixParts(e.ModifiedAt); c.racy(s) {
			ie := entryOf(e)
			if c.smudge(&ie) {
				e.Size = 0
			}
		}
	}
}

// staleEntry reports whether the file of the entry e differs from it in a way its
// stat data may not show: its size and type match the entry's, and its content, as
// git would store it, does not. A file that is gone, beyond a link or of another
// size or type shows its change by stat data alone, as git's own check leaves it.
func (r *Repo) staleEntry(e *ientry, rules *workRules) bool {
	if beyond, err := r.beyondLink(e.name); err != nil || beyond {
		return err != nil
	}
	f, err := statFile(filepath.Join(r.dir, filepath.FromSlash(e.name)))
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	if uint32(f.size) != e.size || f.mode.IsDir() || !modeMatches(e.mode, f.mode, rules) {
		return false
	}
	same, err := r.sameContent(e.name, e, f, rules)
	return err != nil || !same
}

// entryOf is what Status and the racy check read of a decoded index entry.
func entryOf(e *index.Entry) ientry {
	out := ientry{
		name: e.Name, hash: e.Hash, mode: e.Mode, size: e.Size, ino: e.Inode,
		stage: uint8(e.Stage), intentToAdd: e.IntentToAdd, skipWorktree: e.SkipWorktree,
	}
	out.ctimeS, out.ctimeN = unixParts(e.CreatedAt)
	out.mtimeS, out.mtimeN = unixParts(e.ModifiedAt)
	return out
}
