// Package gitrepo is the vault's version control: status, change sets (pending
// changes grouped by who made them, from the journey), diff (with word marks),
// selective commit, discard, history, show and restore at a revision, and push / pull
// with a three-way merge that never loses a side (its conflicts, and those git's own
// commands leave, are read from the index's unmerged entries and resolved hunk by hunk:
// see Conflict and Resolve; a commit is refused while any is left, or while a file
// holds conflict markers), for a git repository whose working tree is the vault,
// built on go-git (the git binary is used only to ask git's credential helpers and to
// reach a remote on this machine, through its upload-pack and receive-pack).
//
// A vault's git configuration (.git/config and the files it includes) may have come
// with the vault from anywhere, a zip or a copy, so it chooses no program MemoTree
// runs. go-git runs no hook, filter, merge or diff driver, file system monitor or
// ssh command: core.hooksPath and the hooks, filter.*, core.fsmonitor and
// core.sshCommand are not read, and SSH remotes are reached by Go's SSH client with
// the agent or the person's key file. Every git command MemoTree starts (see
// gitCommand) runs in the vault with GIT_DIR and GIT_WORK_TREE naming it, never in the
// folder MemoTree was started in; without the GIT_ variables of MemoTree's
// environment (a hook or alias of another repository sets them) but those naming the
// person's system and global files; with prompting off (core.askPass unused); with
// only absolute PATH folders; and with core.fsmonitor false and core.hooksPath a folder
// that cannot exist. `git credential fill` asks every helper of the person's system
// and global files, and of the vault's own only a helper git has built in or
// installed, named with plain arguments (`store --file=…`, `osxkeychain`), never a
// shell command, a path, shell syntax or an alias the vault defines (credhelper.go).
// A remote on this machine is reached with its own configuration too, minus every
// program it could name (localremote.go): none of its hooks runs on a push, nor
// `gc --auto`, and its checked-out branch is never updated. A relative remote is found
// from the vault; a push goes to the URL its sign-in was chosen for. MemoTree's own
// reading of the configuration (identity and how the working tree is read) follows
// include.path and includeIf, at most 10 deep, reads at most 512 KiB of a file and 1
// MiB in all (each file counting at least 4 KiB), and refuses more with ErrBadConfig
// naming the file; its errors name the file and the line, never the file's text.
//
// Reading goes through go-git. Writing to the working tree (discard, the .gitignore
// written by Init) goes through a Writer, the vault, so that those writes are atomic,
// journaled and recognised by the watcher as the app's own. Staging never calls
// go-git's Worktree.Add, which runs a full status per file: Commit builds the new tree
// from HEAD's and the chosen paths alone (as `git commit -- paths` does), reads the
// index once, updates the entries of those paths, and writes it back once. Every index
// it writes smudges the racily clean entries whose files differ, as git does (racy.go),
// so that a note saved again within the second its entry was written is never hidden
// from git status or Status. Commits are signed as git signs them (see Identity).
//
// Paths are vault-relative vpath.Path values; the vault folder must be the root of the
// repository. Status reports what `git status` reports, Obsidian's .obsidian/ and
// .trash/ included; .git and MemoTree's .memotree are never reported or staged, and
// nothing in .obsidian/ or .trash/ is ever written (a discard of them is refused). A
// deleted path and a new one are one renamed change when the journey recorded the move
// or when git's rename detection (`git diff -M`) would pair them (see renames.go).
//
// Concurrency: a *Repo is safe for concurrent use. Commit, and the index update of
// Discard, run under the vault's cross-process write lock, so two MemoTree processes
// (the app and an MCP server) or two Repos on one vault never interleave them, and no
// vault write lands between staging and committing. The index is replaced as git does,
// through .git/index.lock, so a git command running at the same moment is excluded too
// (the loser gets ErrIndexLocked); an index.lock that a MemoTree process killed
// mid-write left behind is recognised by the owner file written before it and removed
// by the next write of the index. Every reference MemoTree writes (the branch a
// commit or fast-forward moves, a tag, the remote-tracking branches and tags of a
// fetch or push) is replaced as git replaces it, through <ref>.lock renamed over it,
// under the vault lock and recorded first: a git command reading it meanwhile sees
// the old value or the new one, one updating it makes MemoTree wait and then fail
// (ErrRefLocked), and a lock a killed MemoTree process left is removed by the next
// Open or update (see refupdate.go, refguard.go); a branch an older MemoTree left
// empty is put back. Pull and Restore write files with compare-and-swap against what
// they read, so an edit landing meanwhile fails the write rather than being
// overwritten. A HeadWatcher runs one goroutine of its own (see its doc).
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Errors returned by this package, wrapped with the operation; check them with
// errors.Is.
var (
	// ErrNotRepository means the folder is not the root of a git repository.
	ErrNotRepository = errors.New("not a git repository")
	// ErrNothingToCommit means the chosen paths have no change to commit.
	ErrNothingToCommit = errors.New("nothing to commit")
	// ErrInvalidPath means a path is not a content path of the vault (it leaves the
	// vault or lies in .git, .obsidian, .trash or .memotree).
	ErrInvalidPath = errors.New("not a content path")
	// ErrInvalidTag means a tag name is not a valid git reference name.
	ErrInvalidTag = errors.New("invalid tag name")
	// ErrTagExists means a tag of that name exists already.
	ErrTagExists = errors.New("tag already exists")
	// ErrUntracked means a discard named an untracked file without RemoveUntracked.
	ErrUntracked = errors.New("untracked file")
)

// Writer writes the working tree, and is told when the repository changes;
// *library.Library implements it, so that what git writes is indexed and every change
// of the repository is announced from one place.
type Writer interface {
	// Apply makes a batch of changes all or nothing (see vault.Vault.Apply).
	Apply(ctx context.Context, changes []vault.Change, o vault.WriteOptions) ([]vault.Hash, error)
	// Lock takes the vault's cross-process write lock (see vault.Vault.Lock); Apply
	// takes it too, so it must not be called while holding it.
	Lock(ctx context.Context) (unlock func(), err error)
	// AppendJourneyEntries appends journey entries given as text (see
	// vault.Vault.AppendJourneyEntries); a pull brings in another copy's entries so.
	AppendJourneyEntries(ctx context.Context, text []byte) error
	// GitChanged is called after the Repo changed the repository's references (HEAD,
	// a branch, a tag, a remote's), its index or its configuration, so that whoever
	// shows its status reads it again. It must not call back into the Repo.
	GitChanged()
}

// changed tells the Writer that the repository changed.
func (r *Repo) changed() {
	if r.w != nil {
		r.w.GitChanged()
	}
}

// Repo is a git repository whose working tree is a vault.
type Repo struct {
	dir  string
	repo *git.Repository
	w    Writer
	// beforeIndexRename, when set (by tests, through export_test.go), runs once the
	// new index is written to index.lock and synced, before the rename (a crash test
	// kills the process there).
	beforeIndexRename func()
	// similar remembers the last inexact rename detection (see renameCache).
	similar renameCache
	// packs is the file system go-git's storage writes packs through (see packFS).
	packs *packFS
	// refs is go-git's storage, through which every reference is written as git
	// writes it (see refStore).
	refs *refStore
	// beforeRefRename, when set (by tests), runs in updateRef once the new value is
	// written to <ref>.lock and checked, before the rename (a crash test kills there).
	beforeRefRename func()
	// beforeHunkWrite, when set (by tests), runs in UndoHunks once the file is read,
	// before the compare-and-swap write (a test saves the note there, as an editor
	// would).
	beforeHunkWrite func()
}

// packSafe reopens r's go-git repository over a packFS, so that the packs a fetch
// writes survive a kill at any moment, and over a refStore, so that the references
// it writes are replaced whole.
func (r *Repo) packSafe(st *filesystem.Storage) error {
	wt, err := r.repo.Worktree()
	if err != nil {
		return fmt.Errorf("open the working tree: %w", err)
	}
	r.packs = &packFS{Filesystem: st.Filesystem()}
	r.refs = &refStore{Storage: filesystem.NewStorage(r.packs, cache.NewObjectLRUDefault()), r: r}
	repo, err := git.Open(r.refs, wt.Filesystem)
	if err != nil {
		return err
	}
	r.repo = repo
	return nil
}

// Open opens the repository whose root is dir. It returns an error wrapping
// ErrNotRepository when dir has no .git.
func Open(dir string, w Writer) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if err := checkConfigSize((&Repo{dir: abs}).gitDir()); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	r, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("open repository %s: %w", dir, ErrNotRepository)
	}
	if err != nil {
		if _, cerr := (&Repo{dir: abs}).config(); cerr != nil {
			err = cerr // the configuration go-git could not read, named as git would name it
		}
		return nil, fmt.Errorf("open repository %s: %w", dir, unsupportedExtension(abs, err))
	}
	repo := &Repo{dir: abs, repo: r, w: w}
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("open repository %s: not stored on disk", dir)
	}
	if err := repo.packSafe(st); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if w != nil {
		if err := repo.repairInterruptedCommit(context.Background()); err != nil {
			return nil, fmt.Errorf("open repository %s: repair a commit a crash interrupted: %w", dir, err)
		}
		if err := repo.repairPacks(context.Background(), st.Filesystem()); err != nil {
			return nil, fmt.Errorf("open repository %s: repair the packs a killed fetch left: %w", dir, err)
		}
		if err := ensureExcluded(abs); err != nil {
			return nil, fmt.Errorf("open repository %s: %w", dir, err)
		}
	}
	return repo, nil
}

// ownPatterns are the ignore patterns of MemoTree's own files: its folder, and the
// temporary file of a write in flight (or one a crash left until the next open).
var ownPatterns = []string{".memotree/", vault.TempPrefix + "*"}

// ensureExcluded adds ownPatterns to .git/info/exclude, git's ignore file that is
// not part of the vault, so that `git add -A` in a repository MemoTree did not create
// (whose .gitignore it does not touch: that would be a change the person did not
// make) never stages them either. A repository whose .git is a file (a linked
// worktree, a submodule) is left alone.
func ensureExcluded(dir string) error {
	gitDir := filepath.Join(dir, ".git")
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return nil
	}
	name := filepath.Join(gitDir, "info", "exclude")
	b, err := regular.ReadPath(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read .git/info/exclude: %w", err)
	}
	have := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	next := string(b)
	for _, p := range ownPatterns {
		if have[p] || have["/"+p] || have[strings.TrimSuffix(p, "/")] {
			continue
		}
		if next != "" && !strings.HasSuffix(next, "\n") {
			next += "\n"
		}
		next += p + "\n"
	}
	if next == string(b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("write .git/info/exclude: %w", err)
	}
	tmp := name + ".memotree"
	if err := os.WriteFile(tmp, []byte(next), 0o644); err != nil {
		return fmt.Errorf("write .git/info/exclude: %w", err)
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write .git/info/exclude: %w", err)
	}
	return nil
}

// Init creates a repository in dir (branch main) unless one exists, and makes sure
// .gitignore ignores .memotree/, keeping whatever else it holds. It then opens it.
func Init(ctx context.Context, dir string, w Writer) (*Repo, error) {
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil && !errors.Is(err, git.ErrRepositoryAlreadyExists) {
		return nil, fmt.Errorf("init repository %s: %w", dir, err)
	}
	if err := ensureIgnored(ctx, dir, w); err != nil {
		return nil, fmt.Errorf("init repository %s: %w", dir, err)
	}
	r, err := Open(dir, w)
	if err == nil {
		r.changed()
	}
	return r, err
}

// gitignorePath is the repository's own ignore file.
const gitignorePath vpath.Path = ".gitignore"

// ensureIgnored appends to .gitignore the lines it lacks of: ".memotree/" (the app's
// own folder) and ".memotree-tmp-*" (the temporary file of a write in flight, or one a
// crash left until the next open, which `git add -A` would otherwise pick up).
func ensureIgnored(ctx context.Context, dir string, w Writer) error {
	b, err := regular.ReadPath(filepath.Join(dir, ".gitignore"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read .gitignore: %w", err)
	}
	folder, temps := false, false
	for _, line := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(line) {
		case ".memotree", ownPatterns[0], "/.memotree", "/" + ownPatterns[0]:
			folder = true
		case ownPatterns[1]:
			temps = true
		}
	}
	if folder && temps {
		return nil
	}
	next := string(b)
	if next != "" && !strings.HasSuffix(next, "\n") {
		next += "\n"
	}
	if !folder {
		next += ".memotree/\n"
	}
	if !temps {
		next += vault.TempPrefix + "*\n"
	}
	ch := vault.Change{Path: gitignorePath, Data: []byte(next), IfHash: vault.HashOf(b)}
	if err != nil { // no .gitignore yet
		ch.IfHash, ch.CreateOnly = "", true
	}
	if _, err := w.Apply(ctx, []vault.Change{ch}, vault.WriteOptions{Actor: "user", Op: "git_init"}); err != nil {
		return fmt.Errorf("write .gitignore: %w", err)
	}
	return nil
}

// Dir returns the absolute path of the working tree.
func (r *Repo) Dir() string { return r.dir }

// checkPaths validates paths given by a caller as content paths.
func checkPaths(paths []vpath.Path) error {
	for _, p := range paths {
		q, err := vpath.Parse(string(p))
		switch {
		case strings.ContainsRune(string(p), '\\'):
			return fmt.Errorf("%w: %s holds a backslash (\\), which Windows takes for a folder separator, so a "+
				"commit of it could not be checked out there; MemoTree does not commit it: rename it without the "+
				"backslash, or commit it with git", ErrInvalidPath, string(p))
		case err != nil:
			return fmt.Errorf("%w: %w", ErrInvalidPath, err)
		case q != p || q == "":
			return fmt.Errorf("%w: %q is not a clean vault path", ErrInvalidPath, string(p))
		case !reported(string(q)):
			return fmt.Errorf("%w: %s is inside a folder reserved for git or MemoTree", ErrInvalidPath, p)
		}
	}
	return nil
}

// content reports whether a repository path is vault content, which MemoTree writes
// (a pull merges it): not in .git, .obsidian, .trash or .memotree, and no temporary
// file of a write.
func content(name string) bool {
	p := vpath.Path(name)
	return !p.Ignored() && !strings.HasPrefix(p.Base(), vault.TempPrefix)
}

// reported reports whether a change of a repository path is one Status reports: every
// one `git status` shows, Obsidian's settings (.obsidian/) and trash (.trash/)
// included, but not MemoTree's own files (.memotree/ and the temporary files of its
// writes, which .git/info/exclude ignores anyway) nor anything in a .git folder or
// file (the repository's own, or a submodule's or nested repository's), which git
// never stores.
func reported(name string) bool {
	first, _, _ := strings.Cut(name, "/")
	p := vpath.Path(name)
	return first != ".memotree" && !p.InGitFolder() && !strings.HasPrefix(p.Base(), vault.TempPrefix)
}

// reportedIn is reported(dir + "/" + name) for an entry of the folder dir that the
// walk reads only because reported(dir) holds (or dir is the root): the folders'
// part of the answer is known, and only the name is left to check.
func reportedIn(dir string, name []byte) bool {
	if dir == "" && string(name) == ".memotree" {
		return false
	}
	// A name holds no '/': InGitFolder looks at it alone. Viewed, not copied.
	return !vpath.Path(unsafe.String(unsafe.SliceData(name), len(name))).InGitFolder() &&
		!bytes.HasPrefix(name, []byte(vault.TempPrefix))
}

// headTree returns the tree of HEAD's commit, or nil for a repository with no commit.
func (r *Repo) headTree() (*plumbing.Hash, *treeReader, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, &treeReader{}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD: %w", err)
	}
	c, err := r.repo.CommitObject(ref.Hash())
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD commit: %w", err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("read HEAD tree: %w", err)
	}
	h := ref.Hash()
	return &h, &treeReader{tree: t}, nil
}
