package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/vpath"
	"time"
)

// Signature names the author of a commit.
type Signature struct {
	Name  string
	Email string
	// When, for an author, is the author date (seed 000's CommitAuthor.Timestamp);
	// zero is the moment of the commit. The committer's date is always that moment.
	When time.Time
}

// CommitOptions say what to commit and how.
type CommitOptions struct {
	// Message is the commit message; trailers are appended to it.
	Message string
	// Paths are the paths to commit; empty commits every pending change. A rename
	// is two paths (Change.From and Change.Path): name both to commit it whole.
	Paths []vpath.Path
	// Tag, when set, names a tag created on the new commit: a lightweight one, or
	// with TagMessage an annotated one (a tag object carrying the message, signed by
	// the committer, as `git tag -a` makes it).
	Tag        string
	TagMessage string
	// Author, when set, is the commit's author (see CheckAuthor); nil takes the author
	// git would (see Repo.Identity). The committer is always git's.
	Author *Signature
	// Trailers are appended to the message as "Key: value" lines, sorted by key.
	Trailers map[string]string
}

// Commit commits exactly the chosen paths, as `git commit -- paths` does: the new
// commit's tree is HEAD's with each path's working-tree content (or its removal), and
// the index entries of those paths are updated to match; what else the index holds
// (changes the person staged and did not name) is neither committed nor touched. With
// no paths it commits every pending change MemoTree commits (see LeaveOutUnnamable).
// A merge a pull left waiting is completed
// only by a commit of every pending change (git refuses a partial commit then); a
// rebase, cherry-pick or revert in progress, or no identity to sign with
// (ErrNoIdentity), refuses the commit. It returns ErrNothingToCommit when HEAD's tree
// would not change.
//
// A commit that fails (a full disk) leaves the index and HEAD as they were, and none
// of its temporary files; its error names the repository's disk (fsfault.Wrap).
func (r *Repo) Commit(ctx context.Context, o CommitOptions) (plumbing.Hash, error) {
	h, _, err := r.commit(ctx, o)
	return h, err
}

// commit is Commit, returning who signed it too.
func (r *Repo) commit(ctx context.Context, o CommitOptions) (plumbing.Hash, Identity, error) {
	h, who, err := r.commitLocked(ctx, o)
	if err == nil {
		return h, who, nil
	}
	if h.IsZero() {
		who = Identity{}
	}
	return h, who, fsfault.Wrap(r.dir, fmt.Errorf("git commit: %w", err))
}

// commitLocked checks o, takes the vault lock and commits; its errors name neither
// the operation nor the disk (commit adds them).
func (r *Repo) commitLocked(ctx context.Context, o CommitOptions) (_ plumbing.Hash, _ Identity, err error) {
	if strings.TrimSpace(o.Message) == "" {
		return plumbing.ZeroHash, Identity{}, errors.New("empty message")
	}
	if err := checkPaths(o.Paths); err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	if err := validTag(o.Tag); err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	if o.TagMessage != "" && o.Tag == "" {
		return plumbing.ZeroHash, Identity{}, errors.New("a tag message without a tag name")
	}
	if o.Author != nil {
		if err := CheckAuthor(*o.Author); err != nil {
			return plumbing.ZeroHash, Identity{}, err
		}
	}
	unlock, err := r.w.Lock(ctx)
	if err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	defer unlock()
	// Under the lock, the temporary object files made since now are this commit's:
	// one that fails (a full disk) removes them.
	start := time.Now().Add(-time.Second)
	defer func() {
		if err != nil && !strings.Contains(err.Error(), "committed") {
			removeTempObjects(filepath.Join(r.dir, ".git"), start)
		}
	}()
	entries, _, err := r.readEntries()
	if err != nil {
		return plumbing.ZeroHash, Identity{}, err // an index in a form MemoTree does not handle
	}
	if u := unmergedIn(entries); len(u) > 0 {
		return plumbing.ZeroHash, Identity{}, unresolvedErr(u, "still conflicted (unmerged in the index)")
	}
	merging, err := r.commitState(len(o.Paths) > 0)
	if errors.Is(err, ErrPartialMerge) {
		err = r.coversPending(ctx, o.Paths)
	}
	if err == nil {
		err = r.checkTag(o.Tag)
	}
	if err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	author, committer, err := r.signatures(o.Author)
	if err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	who := Identity{Author: Signature{Name: author.Name, Email: author.Email, When: author.When},
		Committer: Signature{Name: committer.Name, Email: committer.Email, When: committer.When}}
	h, err := r.writeCommit(ctx, o, merging, author, committer)
	if err != nil {
		return plumbing.ZeroHash, Identity{}, err
	}
	if o.Tag != "" {
		if err := r.tagCommit(ctx, o.Tag, o.TagMessage, h, committer); err != nil {
			return h, who, fmt.Errorf("committed %s, but tag %s: %w", h, o.Tag, err)
		}
	}
	return h, who, nil
}

// writeCommit stages the paths of o (every pending change when none), writes the
// commit and moves the branch to it; the caller holds the vault lock.
func (r *Repo) writeCommit(ctx context.Context, o CommitOptions, merging bool, author, committer *object.Signature) (plumbing.Hash, error) {
	paths := o.Paths
	if len(paths) == 0 {
		changes, err := r.Status(ctx)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		changes, _ = LeaveOutUnnamable(changes)
		paths = Paths(changes)
	}
	set, err := r.workEntries(ctx, paths, true)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	head, base, err := r.headCommit()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	tree, err := r.buildTree("", base, set)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if tree == base && !merging {
		return plumbing.ZeroHash, ErrNothingToCommit
	}
	if tree, err = r.rootTree(tree); err != nil {
		return plumbing.ZeroHash, err
	}
	var parents []plumbing.Hash
	if merging {
		parents = r.mergeParents()
	} else if !head.IsZero() {
		parents = []plumbing.Hash{head}
	}
	// The index first: a process killed after it has the paths staged and HEAD where it
	// was, which the next commit completes; never HEAD ahead of the index. A failure
	// (a full disk) puts the index back as it was.
	undo := r.keepIndex()
	if err := r.updateIndex(ctx, set); err != nil {
		undo(true)
		return plumbing.ZeroHash, err
	}
	c := &object.Commit{Author: *author, Committer: *committer, Message: withTrailers(o.Message, o.Trailers),
		TreeHash: tree, ParentHashes: parents}
	h, err := r.storeCommit(c)
	if err == nil {
		err = r.moveHead(ctx, head, h)
	}
	undo(err != nil)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if merging {
		r.endMerge()
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
	changes, _ = LeaveOutUnnamable(changes)
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

// moveHead moves the checked-out branch (or a detached HEAD) from old (zero: the
// branch is unborn) to h, as git moves it (updateRef): a git command reading it
// meanwhile sees old or h, a kill leaves it at one of them, and a git command that
// moved it meanwhile makes it fail with ErrHeadMoved. It must be called under the
// vault lock.
func (r *Repo) moveHead(ctx context.Context, old, h plumbing.Hash) error {
	name := plumbing.HEAD
	if ref, err := r.repo.Storer.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
		name = ref.Target()
	}
	err := r.updateRef(ctx, plumbing.NewHashReference(name, h), plumbing.NewHashReference(name, old))
	if errors.Is(err, storage.ErrReferenceHasChanged) {
		return ErrHeadMoved
	}
	if err != nil {
		return fmt.Errorf("move %s: %w", name.Short(), err)
	}
	return nil
}

// workEntries writes the blob of each path's working-tree file and returns its index
// entry, or nil for a path whose file is gone. The blob and mode are what git add
// makes of the file (see stageMode and workRules.toGit). With marked set, text files
// that hold conflict markers are refused, all named in one ErrUnresolved.
func (r *Repo) workEntries(ctx context.Context, paths []vpath.Path, marked bool) (map[string]*index.Entry, error) {
	rules, err := r.workRules()
	if err != nil {
		return nil, err
	}
	old, err := r.stagedEntries(paths)
	if err != nil {
		return nil, err
	}
	set := make(map[string]*index.Entry, len(paths))
	var withMarkers []vpath.Path
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, done := set[string(p)]; done {
			continue
		}
		e, err := r.entry(p, rules, old[string(p)], marked)
		if errors.Is(err, errMarked) {
			withMarkers = append(withMarkers, p)
			continue
		}
		if err != nil {
			return nil, err
		}
		set[string(p)] = e
	}
	if len(withMarkers) > 0 {
		return nil, unresolvedErr(withMarkers, "still hold conflict markers (<<<<<<<, =======, >>>>>>>)")
	}
	return set, nil
}

// errMarked means a file holds conflict markers (see HasConflictMarkers).
var errMarked = errors.New("conflict markers")

// unmergedIn lists the paths of unmerged entries, sorted, each once.
func unmergedIn(entries []ientry) []vpath.Path {
	var out []vpath.Path
	for i := range entries {
		if e := &entries[i]; e.stage != 0 && reported(e.name) {
			if n := len(out); n == 0 || out[n-1] != vpath.Path(e.name) {
				out = append(out, vpath.Path(e.name))
			}
		}
	}
	return out
}

// stagedEntries returns the stage-0 index entry of each of paths, nil for a path the
// index lacks. It reads the index with the lean reader (indexfile.go), not go-git's
// decoder, which allocates several objects for every entry of the index; a form the
// lean reader leaves to go-git is read by go-git.
func (r *Repo) stagedEntries(paths []vpath.Path) (map[string]*ientry, error) {
	old := make(map[string]*ientry, len(paths))
	for _, p := range paths {
		old[string(p)] = nil
	}
	entries, err := r.readIndexFile()
	if err != nil {
		idx, gerr := r.repo.Storer.Index()
		if gerr != nil {
			return nil, fmt.Errorf("read index: %w", gerr)
		}
		entries = fromIndex(idx)
	}
	for i := range entries {
		if _, ok := old[entries[i].name]; ok && entries[i].stage == 0 {
			old[entries[i].name] = &entries[i]
		}
	}
	return old, nil
}

// stageMode gives a regular file the mode git's ce_mode_from_stat gives it, from the
// mode its stat says (mode) and its index entry (old, nil for none): where git makes
// no links (core.symlinks false), a plain file standing for a link stays a link; where
// git does not trust the executable bit (core.fileMode false), it keeps the mode of
// its index entry when that is a regular file's, else 100644.
func stageMode(mode filemode.FileMode, old *ientry, rules *workRules) filemode.FileMode {
	var m filemode.FileMode
	if old != nil {
		m = old.mode
	}
	switch {
	case m == filemode.Symlink && !rules.symlinks:
		return m
	case rules.execBit:
		return mode
	case m == filemode.Regular || m == filemode.Executable:
		return m
	}
	return filemode.Regular
}

// updateIndex sets the index entries of the paths in set (removing those whose entry
// is nil, and every conflict stage of each) and leaves every other entry as it was,
// but for the racily clean ones whose files differ, which it smudges (racy.go).
func (r *Repo) updateIndex(ctx context.Context, set map[string]*index.Entry) error {
	racy := r.racyCheck(filepath.Join(r.gitDir(), "index"))
	if raw, err := os.ReadFile(filepath.Join(r.dir, ".git", "index")); err == nil {
		out, ok, err := spliceIndex(raw, set, racy)
		if err != nil {
			return err
		}
		if ok {
			if err := r.writeIndexWaiting(ctx, func() error { return r.writeIndexRaw(out) }); err != nil {
				return fmt.Errorf("write index: %w", err)
			}
			return nil
		}
	}
	idx, err := r.repo.Storer.Index()
	if err != nil {
		return fmt.Errorf("read index: %w", err)
	}
	if err := setEntries(idx, set, racy); err != nil {
		return err
	}
	if err := r.writeIndexWaiting(ctx, func() error { return r.writeIndex(idx) }); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// setEntries applies set to a decoded index: the entries named or displaced by set
// go (a submodule that a file of set would be inside is refused), the racily clean
// entries racy finds are smudged, the new ones are added, all sorted by name, and the
// cached trees, which would describe the old entries, are dropped (git rebuilds
// them). spliceIndex does the same on the raw bytes.
func setEntries(idx *index.Index, set map[string]*index.Entry, racy *racyCheck) error {
	folders := setFolders(set)
	kept := idx.Entries[:0]
	for _, e := range idx.Entries {
		_, named := set[e.Name]
		gone := named || displaced(e.Name, set, folders)
		if gone && e.Mode == filemode.Submodule && folders[e.Name] {
			return insideSubmodule(e.Name)
		}
		if !gone {
			kept = append(kept, e)
		}
	}
	idx.Entries = kept
	racy.smudgeEntries(kept)
	for _, e := range set {
		if e != nil {
			idx.Entries = append(idx.Entries, e)
		}
	}
	sort.SliceStable(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	idx.Cache, idx.ResolveUndo, idx.EndOfIndexEntry = nil, nil, nil
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

// createTag points the new tag name at h (a commit for a lightweight tag, a tag
// object for an annotated one), as git creates a reference (updateRef): it appears
// whole or not at all, and fails with ErrTagExists if the name was taken meanwhile (by
// git itself, say). The caller holds the vault lock.
func (r *Repo) createTag(ctx context.Context, name string, h plumbing.Hash) error {
	tag := plumbing.NewTagReferenceName(name)
	err := r.updateRef(ctx, plumbing.NewHashReference(tag, h), plumbing.NewHashReference(tag, plumbing.ZeroHash))
	if errors.Is(err, storage.ErrReferenceHasChanged) {
		return fmt.Errorf("%w: %s", ErrTagExists, name)
	}
	return err
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
// add): the lean reader finds the named entries, go-git reads and writes the index.
func (r *Repo) stage(ctx context.Context, paths []vpath.Path) error {
	set, err := r.workEntries(ctx, paths, false)
	if err != nil {
		return err
	}
	return r.updateIndex(ctx, set)
}

// entry writes the blob of a working-tree file, as git add stores it (its mode by
// stageMode from its index entry old, its line endings by rules), and returns its
// index entry, or nil when the file does not exist: gone, beyond a link, or a folder in
// its place (whose files are paths of their own), unless that folder is a submodule,
// which is refused. With marked set, a text file holding conflict markers is refused
// with errMarked.
func (r *Repo) entry(p vpath.Path, rules *workRules, old *ientry, marked bool) (*index.Entry, error) {
	beyond, err := r.beyondLink(string(p))
	if err != nil || beyond {
		return nil, err // a path beyond a link is no file of git's: gone
	}
	full := filepath.Join(r.dir, filepath.FromSlash(string(p)))
	fi, err := os.Lstat(full)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) { // gone, or a file where its folder was
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", p, err)
	}
	if fi.IsDir() {
		if _, err := os.Lstat(filepath.Join(full, ".git")); err == nil {
			return nil, insideSubmodule(string(p))
		}
		return nil, nil
	}
	data, mode, err := r.readEntry(p, full, fi)
	if err != nil {
		return nil, err
	}
	if marked && fi.Mode().IsRegular() && !isBinary(data) && HasConflictMarkers(data, p.IsNote()) {
		return nil, errMarked
	}
	if fi.Mode().IsRegular() {
		mode = stageMode(mode, old, rules)
		data = rules.toGit(string(p), data, func() []byte {
			if old == nil {
				return nil
			}
			return r.blobOrNil(old.hash)
		})
	}
	h, err := r.writeBlob(data)
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", p, err)
	}
	e := &index.Entry{Name: string(p), Hash: h, Mode: mode, ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
	fillStat(e, fi)
	return e, nil
}

// beyondLink reports whether one of the folders of the slash path p is a symbolic
// link (or no folder): git then sees no file at p (has_symlink_leading_path) and a
// commit must not read one through the link, which may lead out of the vault.
func (r *Repo) beyondLink(p string) (bool, error) {
	for i := strings.IndexByte(p, '/'); i >= 0; {
		fi, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(p[:i])))
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return false, nil // no folder: the file is gone, which Lstat says next
		}
		if err != nil {
			return false, fmt.Errorf("stat %s: %w", p[:i], err)
		}
		if !fi.IsDir() {
			return true, nil
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false, nil
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
	if fi.Mode()&0o100 != 0 { // the owner's bit, as git reads it
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

// indexBefore is where keepIndex keeps the index a commit started from, in .git.
const indexBefore = "MEMOTREE_INDEX_BEFORE"

// keepIndex keeps the current index under another name (a hard link: no copy, no
// space needed) and returns the function that ends the commit: with failed set it puts
// that index back; otherwise it drops the kept name. It must be called under the vault
// lock.
func (r *Repo) keepIndex() (end func(failed bool)) {
	gitDir := filepath.Join(r.dir, ".git")
	if st, err := os.Stat(gitDir); err != nil || !st.IsDir() {
		return func(bool) {} // a linked worktree: go-git's own writes only
	}
	cur, kept := filepath.Join(gitDir, "index"), filepath.Join(gitDir, indexBefore)
	_ = os.Remove(kept) // a crash's
	had := os.Link(cur, kept) == nil
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
