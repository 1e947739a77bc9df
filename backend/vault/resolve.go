package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/memotree/memotree/backend/vpath"
)

// The resolver: every write of the vault (Write, UpdateFile, Apply, Update,
// RemoveWith, RenameWith, the journey's append, the recovery of a crashed batch,
// WriteInternal) finds its file here, and then works on that file through a
// batchDirs, whose folders are opened without following a symbolic link at any
// component (on Linux by file descriptor, one component at a time, so that what was
// judged is what is written: a folder swapped for a link after the judgement fails
// the write instead of leading it elsewhere).
//
// A path given by a caller may go through symbolic links of the vault, as Obsidian
// lets a folder or a note be a link. The resolver follows them one component at a
// time, as the kernel would, and judges where they finally lead: only to a content
// path of the vault (see checkContent: not inside .git at any depth, .obsidian,
// .trash or .memotree, not journey.yaml, not a temporary file). A link that leaves
// the vault, is absolute, or leads anywhere else refuses the write, with an error
// naming the link. The path finally named has no link on its way, and the write is
// made there.

// maxLinks bounds the symbolic links one path may go through (Linux's limit).
const maxLinks = 40

// resolve follows the symbolic links of p, at every component, to the content path
// they lead to (see resolveWith).
func (v *Vault) resolve(p vpath.Path) (vpath.Path, error) {
	dirs := v.newBatchDirs()
	defer dirs.close()
	p, _, err := v.resolveWith(dirs, p)
	return p, err
}

// absent is the mode resolveWith reports for a path where nothing is.
const absent = fs.ModeIrregular | fs.ModeTemporary

// resolveWith follows the symbolic links of p at every component, the last one too,
// and returns the content path they lead to, with no link on its way, and the mode of
// what is there (absent when nothing is). A write through a link to a note lands in
// the note.
func (v *Vault) resolveWith(dirs *batchDirs, p vpath.Path) (vpath.Path, fs.FileMode, error) {
	return v.resolveFor(dirs, p, true)
}

// resolveEntry is resolveWith for an operation on the entry at p itself (a removal,
// a move, either end of a move): the links of its folders are followed, a link at its
// last component is the entry.
func (v *Vault) resolveEntry(dirs *batchDirs, p vpath.Path) (vpath.Path, fs.FileMode, error) {
	return v.resolveFor(dirs, p, false)
}

func (v *Vault) resolveFor(dirs *batchDirs, p vpath.Path, followLast bool) (vpath.Path, fs.FileMode, error) {
	if err := checkContent(p); err != nil {
		return "", 0, err
	}
	t, mode, via, err := v.walkLinks(dirs, p, followLast)
	if err == nil {
		err = checkContent(t)
	}
	if err != nil && via != "" {
		err = fmt.Errorf("the path goes through the symbolic link %s: %w", via, err)
	}
	if err != nil {
		return "", 0, err
	}
	if v.afterResolve != nil {
		v.afterResolve(p)
	}
	return t, mode, nil
}

// walkLinks resolves p one component at a time, as the kernel does: a symbolic link
// is replaced by its text (which may hold "..", taken against the real folder the
// link is in), a link at the last component only when followLast. It returns the
// path reached, the mode there (absent when nothing is) and the first link followed
// ("" when none was).
func (v *Vault) walkLinks(dirs *batchDirs, p vpath.Path, followLast bool) (at vpath.Path, mode fs.FileMode, via vpath.Path, err error) {
	mode = fs.ModeDir // the vault's folder
	todo := strings.Split(string(p), "/")
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			switch {
			case at == "":
				return "", 0, via, fmt.Errorf("%w: it points outside the vault", ErrOutside)
			case mode == absent:
				return "", 0, via, fmt.Errorf("%w: it names %s, which does not exist, before \"..\"", ErrNotFound, at)
			case !mode.IsDir():
				return "", 0, via, fmt.Errorf("%w: it names %s, which is not a folder, before \"..\"", ErrOutside, at)
			}
			at, mode = at.Dir(), fs.ModeDir
			continue
		}
		next := at.Join(name)
		m, err := dirs.lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			m = absent
		case err != nil:
			return "", 0, via, mapErr(err)
		}
		if m&fs.ModeSymlink == 0 || (len(todo) == 0 && !followLast) {
			at, mode = next, m
			continue
		}
		if links++; links > maxLinks {
			return "", 0, via, fmt.Errorf("%w: too many levels of symbolic links", ErrOutside)
		}
		if via == "" {
			via = next
		}
		link, err := dirs.readlink(next)
		if err != nil {
			return "", 0, via, mapErr(err)
		}
		slashed := filepath.ToSlash(link)
		if filepath.IsAbs(link) || filepath.VolumeName(link) != "" || path.IsAbs(slashed) {
			return "", 0, via, fmt.Errorf("%w: symbolic link %s is absolute (only links relative to their folder are followed)", ErrOutside, next)
		}
		todo = append(strings.Split(slashed, "/"), todo...)
	}
	if via != "" {
		if q, err := vpath.Parse(string(at)); err != nil || q != at {
			return "", 0, via, fmt.Errorf("%w: it leads to %q, which is not a vault path", ErrOutside, string(at))
		}
	}
	return at, mode, via, nil
}

// checkRecorded judges a path MemoTree recorded itself (a step of a batch's intent)
// before a recovery writes there: it was resolved when it was recorded, so it is
// content and no folder on its way is a symbolic link. One that is not was not
// recorded by MemoTree (a vault copied with a crafted .memotree), or its folders
// changed since, and is left alone.
func (v *Vault) checkRecorded(dirs *batchDirs, p vpath.Path) error {
	if err := checkContent(p); err != nil {
		return err
	}
	if err := dirs.folder(p.Dir()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return mapErr(err)
	}
	return nil
}

// linkInWay is the error of an operation that found a symbolic link at d, a folder
// on the way to what it writes, which no write follows (a resolved path has none: a
// folder replaced by a link since, or a path recorded by someone else).
func linkInWay(d vpath.Path) error {
	return fmt.Errorf("%w: %s is a symbolic link, which a write follows only after judging where it leads", ErrOutside, d)
}
