package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/internal/syncfile"
	"github.com/memotree/memotree/backend/vpath"
)

// Signature names the author of a commit.
type Signature struct {
	Name  string
	Email string
}

// CommitOptions say what to commit and how.
type CommitOptions struct {
	// Message is the commit message; trailers are appended to it.
	Message string
	// Paths are the paths to commit; empty commits every pending change. A rename
	// is two paths (Change.From and Change.Path): name both to commit it whole.
	Paths []vpath.Path
	// Tag, when set, names a lightweight tag created on the new commit.
	Tag string
	// Author signs the commit; nil takes user.name and user.email from git's
	// configuration, or MemoTree's own identity when they are unset.
	Author *Signature
	// Trailers are appended to the message as "Key: value" lines, sorted by key.
	Trailers map[string]string
}

// Commit stages exactly the chosen paths (their working-tree content, or their
// removal) in one update of the index and commits them. Other staged changes are
// committed too, as git does. It returns ErrNothingToCommit when HEAD would not change.
func (r *Repo) Commit(ctx context.Context, o CommitOptions) (plumbing.Hash, error) {
	if strings.TrimSpace(o.Message) == "" {
		return plumbing.ZeroHash, errors.New("git commit: empty message")
	}
	if err := checkPaths(o.Paths); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if err := validTag(o.Tag); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	defer unlock()
	if err := r.checkTag(o.Tag); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	paths := o.Paths
	if len(paths) == 0 {
		changes, err := r.Status(ctx)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
		}
		for _, c := range changes {
			paths = append(paths, c.Path)
			if c.From != "" {
				paths = append(paths, c.From)
			}
		}
	}
	// A commit that fails (a full disk) leaves the index and HEAD as they were, and
	// none of its temporary files.
	undo := r.keepIndex()
	if err := r.stage(ctx, paths); err != nil {
		undo(true)
		return plumbing.ZeroHash, fsfault.Wrap(r.dir, fmt.Errorf("git commit: %w", err))
	}
	h, err := r.commitIndex(o)
	undo(h.IsZero() && err != nil && !errors.Is(err, ErrNothingToCommit))
	return h, fsfault.Wrap(r.dir, err)
}

// indexBefore is where keepIndex keeps the index a commit started from, in .git.
const indexBefore = "MEMOTREE_INDEX_BEFORE"

// keepIndex keeps the current index under another name (a hard link: no copy, no
// space needed) and returns the function that ends the commit: with failed set it puts
// that index back and removes the temporary object files the commit left; otherwise
// it drops the kept name. It must be called under the vault lock.
func (r *Repo) keepIndex() (end func(failed bool)) {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		return func(bool) {} // a linked worktree: go-git's own writes only
	}
	cur, kept := filepath.Join(gitDir, "index"), filepath.Join(gitDir, indexBefore)
	_ = os.Remove(kept) // a crash's
	had := os.Link(cur, kept) == nil
	start := time.Now().Add(-time.Second)
	return func(failed bool) {
		switch {
		case failed && had:
			// Renaming a link over another link to the same file does nothing: the
			// index was not replaced then, and the kept name just goes.
			a, aerr := os.Stat(kept)
			b, berr := os.Stat(cur)
			if aerr != nil || berr != nil || os.SameFile(a, b) || os.Rename(kept, cur) != nil {
				_ = os.Remove(kept)
			}
		case failed:
			_ = os.Remove(cur) // there was no index
		default:
			_ = os.Remove(kept)
		}
		if failed {
			removeTempObjects(gitDir, start)
		}
	}
}

// removeTempObjects removes the temporary object files (go-git's tmp_obj_*) made in
// .git/objects/pack since start: those of a commit that failed half way.
func removeTempObjects(gitDir string, start time.Time) {
	dir := filepath.Join(gitDir, "objects", "pack")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "tmp_obj_") {
			continue
		}
		if info, err := e.Info(); err == nil && !info.ModTime().Before(start) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// commitIndex commits the index and creates the tag. It must be called under the
// vault lock (the branch's move is guarded, see beginRefUpdate).
func (r *Repo) commitIndex(o CommitOptions) (plumbing.Hash, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	sig := r.signature(o.Author)
	co := &git.CommitOptions{Author: sig, Committer: sig}
	if parents := r.mergeParents(); parents != nil { // completes a pull that met conflicts
		co.Parents, co.AllowEmptyCommits = parents, true
	}
	done, err := r.beginRefUpdate()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	h, err := wt.Commit(withTrailers(o.Message, o.Trailers), co)
	if err != nil && !errors.Is(err, git.ErrEmptyCommit) {
		// go-git may have truncated the branch file and failed to write it (a full
		// disk): put it back now, or leave the record for the next open to.
		r.repairRef(filepath.Join(r.dir, ".git"))
		if head, herr := r.repo.Head(); herr == nil && !h.IsZero() && head.Hash() == h {
			err = nil // the branch moved after all: the commit is made
		}
	} else {
		done()
	}
	if errors.Is(err, git.ErrEmptyCommit) {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", ErrNothingToCommit)
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if co.Parents != nil {
		r.endMerge()
	}
	if o.Tag != "" {
		if err := r.createTag(o.Tag, h); err != nil {
			return h, fmt.Errorf("git commit: committed %s, but tag %s: %w", h, o.Tag, err)
		}
	}
	return h, nil
}

// createTag creates a lightweight tag. go-git writes a new reference file in place (created
// empty, then written), so a process killed between the two would leave a tag git
// calls broken; this writes the hash to a temporary file in .git, syncs it, and links
// it to its name, which either appears whole or not at all, and fails with
// ErrTagExists if the name was taken meanwhile (by git itself, say). A linked
// worktree, whose .git is a file, falls back to go-git.
func (r *Repo) createTag(name string, h plumbing.Hash) error {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		_, err := r.repo.CreateTag(name, h, nil)
		return err
	}
	ref := filepath.Join(gitDir, filepath.FromSlash(plumbing.NewTagReferenceName(name).String()))
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(gitDir, "MEMOTREE_TAG.tmp")
	if err := fsfault.Check("create", tmp); err != nil {
		return err
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := syncfile.Finish(f, []byte(h.String()+"\n"), 0, false); err != nil {
		return err
	}
	if err := fsfault.Check("link", ref); err != nil {
		return err
	}
	if err := os.Link(tmp, ref); errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%w: %s", ErrTagExists, name)
	} else if err != nil {
		return err
	}
	return nil
}

// validTag refuses a tag name git would not accept.
func validTag(name string) error {
	if name == "" {
		return nil
	}
	if strings.ContainsAny(name, " \t\n\x00") || plumbing.NewTagReferenceName(name).Validate() != nil {
		return fmt.Errorf("%w: %q", ErrInvalidTag, name)
	}
	return nil
}

// checkTag refuses an existing tag name before anything is committed.
func (r *Repo) checkTag(name string) error {
	if name == "" {
		return nil
	}
	if _, err := r.repo.Reference(plumbing.NewTagReferenceName(name), false); err == nil {
		return fmt.Errorf("%w: %s", ErrTagExists, name)
	}
	return nil
}

// signature returns the author: the given one, git's configured user, or MemoTree.
func (r *Repo) signature(a *Signature) *object.Signature {
	s := &object.Signature{Name: "MemoTree", Email: "memotree@localhost", When: time.Now()}
	if a != nil && a.Name != "" {
		s.Name, s.Email = a.Name, a.Email
		return s
	}
	if c, err := r.repo.ConfigScoped(config.GlobalScope); err == nil && c.User.Name != "" {
		s.Name, s.Email = c.User.Name, c.User.Email
	}
	return s
}

// withTrailers appends "Key: value" trailers to msg, sorted by key.
func withTrailers(msg string, trailers map[string]string) string {
	msg = strings.TrimRight(msg, "\n\t ") + "\n"
	if len(trailers) == 0 {
		return msg
	}
	keys := make([]string, 0, len(trailers))
	for k := range trailers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(msg + "\n")
	for _, k := range keys {
		b.WriteString(k + ": " + trailers[k] + "\n")
	}
	return b.String()
}

// stage reads the index once, replaces the entries of paths by their working-tree
// content (or drops them when the file is gone; a conflicted path loses all its
// stages, as with git add), and writes the index once.
func (r *Repo) stage(ctx context.Context, paths []vpath.Path) error {
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	chosen := make(map[string]bool, len(paths))
	var fresh []*index.Entry
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if chosen[string(p)] {
			continue
		}
		chosen[string(p)] = true
		e, err := r.entry(p)
		if err != nil {
			return err
		}
		if e != nil {
			fresh = append(fresh, e)
		}
	}
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if !chosen[e.Name] {
			kept = append(kept, e)
		}
	}
	idx.Entries = append(kept, fresh...)
	sort.SliceStable(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	// The cached trees would describe the old entries: drop them, git rebuilds them.
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	if err := r.writeIndex(idx); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// entry writes the blob of a working-tree file and returns its index entry, or nil
// when the file does not exist.
func (r *Repo) entry(p vpath.Path) (*index.Entry, error) {
	full := filepath.Join(r.dir, filepath.FromSlash(string(p)))
	fi, err := os.Lstat(full)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", p, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("stage %s: %w: a folder", p, ErrInvalidPath)
	}
	data, mode, err := r.readEntry(p, full, fi)
	if err != nil {
		return nil, err
	}
	h, err := r.writeBlob(data)
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", p, err)
	}
	e := &index.Entry{Name: string(p), Hash: h, Mode: mode, ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
	fillStat(e, fi)
	return e, nil
}

// readEntry returns what git stores for a file: its content, or a link's target.
func (r *Repo) readEntry(p vpath.Path, full string, fi os.FileInfo) ([]byte, filemode.FileMode, error) {
	if fi.Mode()&os.ModeSymlink != 0 {
		t, err := os.Readlink(full)
		if err != nil {
			return nil, 0, fmt.Errorf("read link %s: %w", p, err)
		}
		return []byte(filepath.ToSlash(t)), filemode.Symlink, nil
	}
	data, ok, err := r.readWork(p)
	if err != nil || !ok {
		return nil, 0, fmt.Errorf("read %s: %w", p, errors.Join(err, os.ErrNotExist))
	}
	mode := filemode.Regular
	if fi.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	return data, mode, nil
}

// writeBlob stores data as a blob object and returns its hash.
func (r *Repo) writeBlob(data []byte) (plumbing.Hash, error) {
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}
