package gitrepo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
)

// ErrUnsupportedIndex means the index, or the repository, is in a form MemoTree does
// not handle: a split index, a sparse index or a sparse checkout, files marked
// skip-worktree or assume-unchanged, or a repository extension go-git cannot open.
// Status and commits refuse it, before anything is written, with an error saying
// what git command puts it back in a form MemoTree handles; git's own commands go on
// working.
var ErrUnsupportedIndex = errors.New("the repository is in a form MemoTree does not handle")

// readEntries reads the index's entries as Status needs them: with the lean reader,
// or with go-git's where that one cannot find the index; a form MemoTree does not
// handle is ErrUnsupportedIndex. The lean reader also returns the valid records of
// the index's cache-tree (nil from go-git's).
func (r *Repo) readEntries() ([]ientry, map[string]cachedTree, error) {
	entries, tree, err := r.readIndex()
	if errors.Is(err, errIndexFormat) {
		idx, gerr := r.repo.Storer.Index()
		if gerr != nil {
			return nil, nil, fmt.Errorf("read index: %w", gerr)
		}
		entries, tree, err = fromIndex(idx), nil, nil
	}
	if err != nil {
		return nil, nil, r.indexForm(err)
	}
	return entries, tree, r.checkEntries(entries)
}

// undoSparse are the git commands that end a sparse checkout and leave a repository
// go-git opens (git sparse-checkout disable sets extensions.worktreeConfig).
const undoSparse = "`git sparse-checkout disable`, `git config --unset extensions.worktreeConfig` and " +
	"`git config --unset core.sparseCheckout`"

// indexForm explains a split or sparse index.
func (r *Repo) indexForm(err error) error {
	switch {
	case errors.Is(err, errSplitIndex):
		return fmt.Errorf("%w: its index is split in two files (`git update-index --split-index`, or core.splitIndex), "+
			"which MemoTree cannot read or write; run `git update-index --no-split-index` in %s "+
			"(and `git config core.splitIndex false` if it is set), then try again", ErrUnsupportedIndex, r.dir)
	case errors.Is(err, errSparseIndex):
		return fmt.Errorf("%w: its index is a sparse index (`git sparse-checkout --sparse-index`, or index.sparse), "+
			"which MemoTree cannot read, and MemoTree needs every note checked out; run `git sparse-checkout disable` in %s, "+
			"then try again", ErrUnsupportedIndex, r.dir)
	}
	return err
}

// checkEntries refuses entries git treats as absent or unchanged whatever the working
// tree holds: skip-worktree (a sparse checkout, or `git update-index
// --skip-worktree`), whose missing files Status would take for deletions and a commit
// would delete, and assume-unchanged, whose edits git hides and a commit would take.
func (r *Repo) checkEntries(entries []ientry) error {
	var skip, assume int
	var firstSkip, firstAssume string
	for i := range entries {
		e := &entries[i]
		if e.skipWorktree {
			if skip++; skip == 1 {
				firstSkip = e.name
			}
		}
		if e.assumeValid {
			if assume++; assume == 1 {
				firstAssume = e.name
			}
		}
	}
	switch {
	case skip > 0:
		return fmt.Errorf("%w: %s marked skip-worktree (a sparse checkout, or `git update-index --skip-worktree`), %s first; "+
			"git leaves them out of status and commits, and MemoTree, which needs every note checked out, would take "+
			"them for deleted: in %s run %s (or, for files marked by hand, `git update-index --no-skip-worktree -- %s`), "+
			"then try again", ErrUnsupportedIndex, plural(skip, "file is", "files are"), firstSkip, r.dir, undoSparse, firstSkip)
	case assume > 0:
		return fmt.Errorf("%w: %s marked assume-unchanged (`git update-index --assume-unchanged`), %s first; git hides "+
			"their edits from status and commits, and MemoTree would show and commit them: run "+
			"`git update-index --no-assume-unchanged -- %s` in %s for each (`git ls-files -v` marks them with a lower-case letter), "+
			"then try again", ErrUnsupportedIndex, plural(assume, "file is", "files are"), firstAssume, firstAssume, r.dir)
	}
	return nil
}

// plural says "1 file is" or "3 files are".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// unsupportedExtension explains a repository extension go-git refuses to open
// (extensions.* in .git/config); other errors are returned as they are.
func unsupportedExtension(dir string, err error) error {
	if !errors.Is(err, git.ErrUnsupportedExtensionRepositoryFormatVersion) && !errors.Is(err, git.ErrUnknownExtension) {
		return err
	}
	if strings.Contains(strings.ToLower(err.Error()), "worktreeconfig") {
		return fmt.Errorf("%w: it sets extensions.worktreeConfig (`git sparse-checkout` turns it on), which MemoTree's git "+
			"library cannot open (%v); move any settings of .git/config.worktree other than core.sparseCheckout into "+
			".git/config, then in %s run %s", ErrUnsupportedIndex, err, dir, undoSparse)
	}
	return fmt.Errorf("%w: it uses a repository extension MemoTree's git library cannot open (%v); "+
		"`git config --get-regexp '^extensions\\.'` in %s lists them", ErrUnsupportedIndex, err, dir)
}
