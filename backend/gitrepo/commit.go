package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"

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
	// Author, when set, is the commit's author; nil takes the author git would
	// (see Repo.Identity). The committer is always git's.
	Author *Signature
	// Trailers are appended to the message as "Key: value" lines, sorted by key.
	Trailers map[string]string
}

// Commit commits exactly the chosen paths, as `git commit -- paths` does: the new
// commit's tree is HEAD's with each path's working-tree content (or its removal), and
// the index entries of those paths are updated to match; what else the index holds
// (changes the person staged and did not name) is neither committed nor touched. With
// no paths it commits every pending change. A merge a pull left waiting is completed
// only by a commit of every pending change (git refuses a partial commit then); a
// rebase, cherry-pick or revert in progress, or no identity to sign with
// (ErrNoIdentity), refuses the commit. It returns ErrNothingToCommit when HEAD's tree
// would not change.
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
	merging, err := r.commitState(len(o.Paths) > 0)
	if errors.Is(err, ErrPartialMerge) {
		err = r.coversPending(ctx, o.Paths)
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if err := r.checkTag(o.Tag); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	author, committer, err := r.signatures(o.Author)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	paths := o.Paths
	if len(paths) == 0 {
		changes, err := r.Status(ctx)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
		}
		paths = Paths(changes)
	}
	set, err := r.workEntries(ctx, paths)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	head, base, err := r.headCommit()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	tree, err := r.buildTree(base, set)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if tree == base && !merging {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", ErrNothingToCommit)
	}
	if tree, err = r.rootTree(tree); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	var parents []plumbing.Hash
	if merging {
		parents = r.mergeParents()
	} else if !head.IsZero() {
		parents = []plumbing.Hash{head}
	}
	// The index first: a process killed after it has the paths staged and HEAD where it
	// was, which the next commit completes; never HEAD ahead of the index.
	if err := r.updateIndex(ctx, set); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	c := &object.Commit{Author: *author, Committer: *committer, Message: withTrailers(o.Message, o.Trailers),
		TreeHash: tree, ParentHashes: parents}
	h, err := r.storeCommit(c)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if err := r.moveHead(head, h); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("git commit: %w", err)
	}
	if merging {
		r.endMerge()
	}
	if o.Tag != "" {
		if err := r.createTag(o.Tag, h); err != nil {
			return h, fmt.Errorf("git commit: committed %s, but tag %s: %w", h, o.Tag, err)
		}
	}
	return h, nil
}

// coversPending returns ErrPartialMerge unless paths name every pending change.
func (r *Repo) coversPending(ctx context.Context, paths []vpath.Path) error {
	changes, err := r.Status(ctx)
	if err != nil {
		return err
	}
	named := make(map[vpath.Path]bool, len(paths))
	for _, p := range paths {
		named[p] = true
	}
	for _, p := range Paths(changes) {
		if !named[p] {
			return fmt.Errorf("%w; %s is pending and not named", ErrPartialMerge, p)
		}
	}
	return nil
}

// headCommit returns HEAD's commit and its tree, both zero before the first commit.
func (r *Repo) headCommit() (commit, tree plumbing.Hash, err error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	if t, ok := r.commitTree(ref.Hash()); ok {
		return ref.Hash(), t, nil
	}
	c, err := object.GetCommit(r.repo.Storer, ref.Hash())
	if err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("read HEAD commit: %w", err)
	}
	return ref.Hash(), c.TreeHash, nil
}

// storeCommit writes a commit object.
func (r *Repo) storeCommit(c *object.Commit) (plumbing.Hash, error) {
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("store commit: %w", err)
	}
	return h, nil
}

// ErrHeadMoved means HEAD moved while a commit was being made (a git command
// committed meanwhile): nothing was committed.
var ErrHeadMoved = errors.New("HEAD moved while committing (a git command committed meanwhile); commit again")

// moveHead moves the checked-out branch (or a detached HEAD) from old to h, guarded
// against a kill (beginRefUpdate) and against a git command that moved it meanwhile.
// It must be called under the vault lock.
func (r *Repo) moveHead(old, h plumbing.Hash) error {
	name := plumbing.HEAD
	if ref, err := r.repo.Storer.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		name = ref.Target()
	}
	done, err := r.beginRefUpdate()
	if err != nil {
		return err
	}
	defer done()
	var prev *plumbing.Reference
	if !old.IsZero() {
		prev = plumbing.NewHashReference(name, old)
	} else if _, err := r.repo.Storer.Reference(name); err == nil {
		return ErrHeadMoved // born meanwhile
	}
	err = r.repo.Storer.CheckAndSetReference(plumbing.NewHashReference(name, h), prev)
	if errors.Is(err, storage.ErrReferenceHasChanged) {
		return ErrHeadMoved
	}
	if err != nil {
		return fmt.Errorf("move %s: %w", name.Short(), err)
	}
	return nil
}

// workEntries writes the blob of each path's working-tree file and returns its index
// entry, or nil for a path whose file is gone.
func (r *Repo) workEntries(ctx context.Context, paths []vpath.Path) (map[string]*index.Entry, error) {
	set := make(map[string]*index.Entry, len(paths))
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, done := set[string(p)]; done {
			continue
		}
		e, err := r.entry(p)
		if err != nil {
			return nil, err
		}
		set[string(p)] = e
	}
	return set, nil
}

// updateIndex sets the index entries of the paths in set (removing those whose entry
// is nil, and every conflict stage of each) and leaves every other entry as it was.
func (r *Repo) updateIndex(ctx context.Context, set map[string]*index.Entry) error {
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	folders := setFolders(set)
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		if _, named := set[e.Name]; !named && !displaced(e.Name, set, folders) {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	for _, e := range set {
		if e != nil {
			idx.Entries = append(idx.Entries, e)
		}
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	// The cached trees would describe the old entries: drop them, git rebuilds them.
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
	if err := r.writeIndexWaiting(ctx, idx); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// displaced reports whether the index entry name must go because a file of set takes
// its place: a file set at one of its folders, or a file set below name (which is a
// folder now). folders holds every folder of the files set.
func displaced(name string, set map[string]*index.Entry, folders map[string]bool) bool {
	if folders[name] {
		return true
	}
	for i := strings.IndexByte(name, '/'); i >= 0; {
		if e, ok := set[name[:i]]; ok && e != nil {
			return true
		}
		j := strings.IndexByte(name[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// setFolders lists the folders of the files set (not of the paths removed).
func setFolders(set map[string]*index.Entry) map[string]bool {
	out := map[string]bool{}
	for p, e := range set {
		for e != nil {
			i := strings.LastIndexByte(p, '/')
			if i < 0 || out[p[:i]] {
				break
			}
			p = p[:i]
			out[p] = true
		}
	}
	return out
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
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := syncfile.Finish(f, []byte(h.String()+"\n"), 0, false); err != nil {
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

// stage sets the index entries of paths to their working-tree content (or drops
// them when the file is gone; a conflicted path loses all its stages, as with git
// add) in one read and one write of the index.
func (r *Repo) stage(ctx context.Context, paths []vpath.Path) error {
	set, err := r.workEntries(ctx, paths)
	if err != nil {
		return err
	}
	return r.updateIndex(ctx, set)
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
