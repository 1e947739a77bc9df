package vault

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/internal/dirents"
	"github.com/memotree/memotree/backend/internal/parts"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vpath"
)

// walkInFlight is how many folders a walk lists at once at least: listing a folder
// that is not in the cache waits for the disk, and several waits overlap.
const walkInFlight = 8

// maxLinkHops bounds how many symbolic links to folders one walked path may cross.
const maxLinkHops = 8

// Walk lists every regular file of the vault (notes and attachments), sorted by path.
// It skips the folders vpath.Ignored names, temporary files of writes in progress, and
// names that are not valid vault paths (not UTF-8, or holding a backslash). Symbolic
// links are followed only when they stay inside the vault; a link to a folder that
// contains it is not followed again. Folders are read in parallel.
func (v *Vault) Walk(ctx context.Context) ([]FileInfo, error) { return v.walk(ctx, "", true) }

// WalkPaths is Walk without the stat of every file: Size and ModTime are zero. It is
// what a full index needs, which reads every file anyway.
func (v *Vault) WalkPaths(ctx context.Context) ([]FileInfo, error) { return v.walk(ctx, "", false) }

// WalkNames is WalkPaths giving the paths alone: at 100k files, a list of FileInfo
// is 5.6 MB that a full index does not need, made on one core.
func (v *Vault) WalkNames(ctx context.Context) ([]vpath.Path, error) {
	if v.stage != nil {
		return v.stage.walkNames(ctx)
	}
	root, n, err := v.walkTree(ctx, "", false)
	if err != nil {
		return nil, err
	}
	return collect(root, make([]vpath.Path, 0, n), func(f *FileInfo) vpath.Path { return f.Path }), nil
}

// WalkOrdered calls visit with the vault's regular files one at a time, in path
// order, as Walk lists them (the same folders skipped, the same links followed), and
// stops when visit returns false: a search that wants the first notes in path order
// lists the folders it gets to only, where Walk lists them all first (100k notes:
// 150 ms and more before the first). Folders are read one after the other. stat,
// asked as each folder is listed (on the goroutine listing it, ahead of visit), says
// whether its files' Size and ModTime are to be filled in (nil: never), so that a
// caller may start wanting them part way.
func (v *Vault) WalkOrdered(ctx context.Context, stat func() bool, visit func(FileInfo) bool) error {
	if v.stage != nil {
		files, err := v.stage.walk(ctx, "", stat != nil && stat())
		if err != nil {
			return err
		}
		for _, f := range files {
			if !visit(f) {
				return nil
			}
		}
		return nil
	}
	w := &walker{v: v, ctx: ctx, statIf: stat, inOrder: true}
	_, err := w.ordered(&folder{}, visit)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("walk %s: %w", v.dir, err)
	}
	return nil
}

// ordered lists the folder f and visits its files and those below its subfolders in
// path order (as collect puts them); it reports whether visit wants more. Only the
// start's folder failing to list is an error: a subfolder that cannot be listed is
// skipped, as by Walk. While the files below one subfolder are visited, the next
// subfolder is listed on another goroutine: a folder ahead at most, so that a walk
// stopped early has listed little more than it needed.
func (w *walker) ordered(f *folder, visit func(FileInfo) bool) (bool, error) {
	if err := w.ctx.Err(); err != nil {
		return false, err
	}
	var l listing
	if f.listed != nil {
		l = <-f.listed
	} else {
		l = w.list(f)
	}
	if l.err != nil {
		if f.path == w.from {
			return false, l.err
		}
		return true, nil
	}
	files := l.files
	i := 0
	for k, s := range l.subs {
		for ; i < len(files) && string(files[i].Path) < s.key; i++ {
			if !visit(files[i]) {
				return false, nil
			}
		}
		if k+1 < len(l.subs) {
			next := l.subs[k+1]
			next.listed = make(chan listing, 1)
			go func() { next.listed <- w.list(next) }()
		}
		if more, err := w.ordered(s, visit); !more || err != nil {
			return more, err
		}
	}
	for ; i < len(files); i++ {
		if !visit(files[i]) {
			return false, nil
		}
	}
	return true, nil
}

// listing is one folder listed by an ordered walk: its files sorted by path, its
// subfolders by key.
type listing struct {
	files []FileInfo
	subs  []*folder
	err   error
}

// list lists the folder f for an ordered walk.
func (w *walker) list(f *folder) listing {
	files, subs, err := w.read(f.path, f.hops)
	if err != nil {
		return listing{err: err}
	}
	slices.SortFunc(files, func(a, b FileInfo) int { return strings.Compare(string(a.Path), string(b.Path)) })
	folders := make([]*folder, len(subs))
	for i, s := range subs {
		folders[i] = &folder{key: string(s.p) + "/", path: s.p, hops: s.hops}
	}
	slices.SortFunc(folders, func(a, b *folder) int { return strings.Compare(a.key, b.key) })
	return listing{files: files, subs: folders}
}

// WalkUnder is WalkPaths for the files below the folder dir only (a folder that
// appeared or moved in one step).
func (v *Vault) WalkUnder(ctx context.Context, dir vpath.Path) ([]FileInfo, error) {
	if err := checkPath(dir); err != nil || dir.Ignored() {
		return nil, fmt.Errorf("walk %s: %w", dir, ErrOutside)
	}
	return v.walk(ctx, dir, false)
}

func (v *Vault) walk(ctx context.Context, from vpath.Path, stat bool) ([]FileInfo, error) {
	if v.stage != nil {
		return v.stage.walk(ctx, from, stat)
	}
	root, n, err := v.walkTree(ctx, from, stat)
	if err != nil {
		return nil, err
	}
	return collect(root, make([]FileInfo, 0, n), func(f *FileInfo) FileInfo { return *f }), nil
}

// walkTree lists the folder from and the folders below it, and returns the tree and
// how many files it holds.
func (v *Vault) walkTree(ctx context.Context, from vpath.Path, stat bool) (*folder, int, error) {
	w := &walker{v: v, ctx: ctx, stat: stat, from: from, sem: make(chan struct{}, max(walkInFlight, runtime.GOMAXPROCS(0)))}
	root := &folder{path: from}
	w.wg.Add(1)
	go w.dir(root)
	w.wg.Wait()
	if w.err != nil {
		return nil, 0, fmt.Errorf("walk %s: %w", v.dir, w.err)
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, fmt.Errorf("walk %s: %w", v.dir, err)
	}
	if len(w.temps) > 0 {
		v.orphanMu.Lock()
		if v.orphans == nil {
			v.orphans = map[vpath.Path]bool{}
		}
		for _, p := range w.temps {
			v.orphans[p] = true
		}
		v.orphanMu.Unlock()
	}
	return root, int(w.files.Load()), nil
}

// folder is one folder of a walk, its files and subfolders each sorted by path (on
// the goroutine that read it), so that the whole listing comes out sorted in one
// pass over the tree (collect) rather than by a sort of every path on one core.
type folder struct {
	files []FileInfo
	subs  []*folder
	key   string // the folder's path and "/": what its files' paths start with
	path  vpath.Path
	hops  int // the symbolic links to folders crossed to get here
	// listed brings the folder's listing when an ordered walk lists it ahead.
	listed chan listing
}

// collect appends of(file) for the files of f and of its subfolders to out, in path
// order: the files below a subfolder sort together, and where a file's name compares
// with the subfolder's name and "/" (the path of each of them begins so), as a
// file's name holds no "/".
func collect[T any](f *folder, out []T, of func(*FileInfo) T) []T {
	files := f.files
	for _, s := range f.subs {
		i := 0
		for i < len(files) && string(files[i].Path) < s.key {
			i++
		}
		for k := range files[:i] {
			out = append(out, of(&files[k]))
		}
		files = files[i:]
		out = collect(s, out, of)
	}
	for k := range files {
		out = append(out, of(&files[k]))
	}
	return out
}

type walker struct {
	v       *Vault
	ctx     context.Context
	stat    bool          // fill in Size and ModTime
	statIf  func() bool   // asked at each folder when stat is not set (WalkOrdered)
	inOrder bool          // one folder at a time (WalkOrdered)
	from    vpath.Path    // the folder the walk starts at
	sem     chan struct{} // bounds the folders read at once
	wg      sync.WaitGroup
	files   atomic.Int64 // files listed so far

	mu    sync.Mutex
	temps []vpath.Path // temporary files of writes, in progress or orphaned by a crash
	err   error
}

// dir lists the folder f, sorts its files and subfolders and starts a goroutine per
// subfolder.
func (w *walker) dir(f *folder) {
	defer w.wg.Done()
	if w.ctx.Err() != nil {
		return
	}
	w.sem <- struct{}{}
	files, subs, err := w.read(f.path, f.hops)
	<-w.sem
	if err != nil && f.path == w.from {
		w.mu.Lock()
		if w.err == nil {
			w.err = err // an unreadable subfolder is skipped; an unreadable start is not
		}
		w.mu.Unlock()
	}
	w.files.Add(int64(len(files)))
	slices.SortFunc(files, func(a, b FileInfo) int { return strings.Compare(string(a.Path), string(b.Path)) })
	f.files, f.subs = files, make([]*folder, len(subs))
	for i, s := range subs {
		f.subs[i] = &folder{key: string(s.p) + "/", path: s.p, hops: s.hops}
	}
	// By key, not path: "a!/" sorts before "a/", though "a" sorts before "a!".
	slices.SortFunc(f.subs, func(a, b *folder) int { return strings.Compare(a.key, b.key) })
	for _, s := range f.subs {
		w.wg.Add(1)
		go w.dir(s)
	}
}

type sub struct {
	p    vpath.Path
	hops int
}

// dirEntry is one entry of a folder, as readDir lists it: mode holds the type bits
// only; size and mtime are set (statted) for regular files when asked for.
type dirEntry struct {
	name    string
	mode    fs.FileMode
	size    int64
	mtime   time.Time
	statted bool
}

func (w *walker) read(d vpath.Path, hops int) ([]FileInfo, []sub, error) {
	f, err := regular.OpenDir(w.v.root, osName(d))
	if err != nil {
		return nil, nil, mapErr(err)
	}
	defer f.Close()
	var (
		files []FileInfo
		subs  []sub
	)
	// A walk one folder at a time (WalkOrdered) stats a large folder's files on every
	// core once they are listed; the parallel walk has its folders for that.
	stat := w.stat || w.statIf != nil && w.statIf()
	late := stat && w.inOrder
	err = readDir(w.v.root, f, d, stat && !late, func(e *dirEntry) {
		name := e.name
		p := childPath(d, name)
		switch t := e.mode; {
		case t.IsDir():
			if !p.Ignored() {
				subs = append(subs, sub{p, hops})
			}
		case t.IsRegular():
			if strings.HasPrefix(name, TempPrefix) {
				w.mu.Lock()
				w.temps = append(w.temps, p)
				w.mu.Unlock()
				return
			}
			if !stat || late && !e.statted {
				files = append(files, FileInfo{Path: p})
			} else if e.statted {
				files = append(files, FileInfo{Path: p, Size: e.size, ModTime: e.mtime})
			}
		case t&fs.ModeSymlink != 0:
			files, subs = w.link(p, hops, files, subs)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	if late {
		files = statFiles(f, d, w.v.root, files)
	}
	return files, subs, nil
}

// statFiles fills in the size and time of the files of the open folder f (vault path
// d) not statted yet, on every core when they are many, and leaves out those that
// are gone or no longer regular files.
func statFiles(f *os.File, d vpath.Path, root *os.Root, files []FileInfo) []FileInfo {
	ok := make([]bool, len(files))
	parts.Run(parts.Count(len(files), 256), len(files), func(_, from, to int) {
		for i := from; i < to; i++ {
			if !files[i].ModTime.IsZero() {
				ok[i] = true // a link, statted where it was followed
				continue
			}
			mode, size, mtime, statted := statAt(root, f, d, files[i].Path.Base())
			if ok[i] = statted && mode.IsRegular(); ok[i] {
				files[i].Size, files[i].ModTime = size, mtime
			}
		}
	})
	out := files[:0]
	for i, f := range files {
		if ok[i] {
			out = append(out, f)
		}
	}
	return out
}

// readDir calls visit with each entry of the open folder f (vault path d) whose name
// can be part of a vault path, e reused between calls: listed by dirents.List (getdents on
// Linux: no stat, no *os.File, DirEntry or FileInfo per entry) and, for the regular
// files when stat is set and for the entries whose type the file system does not
// report, stat'ed by statAt, which never follows a link (links are resolved by the
// caller through os.Root). Devices, sockets and pipes are left out.
func readDir(root *os.Root, f *os.File, d vpath.Path, stat bool, visit func(*dirEntry)) error {
	var e dirEntry
	return dirents.List(f, func(name []byte, t fs.FileMode) {
		if !validNameBytes(name) {
			return
		}
		e = dirEntry{name: string(name), mode: t}
		if stat && t == 0 || t == dirents.TypeUnknown {
			var ok bool
			if e.mode, e.size, e.mtime, ok = statAt(root, f, d, e.name); !ok {
				return // gone since the listing, or unreadable: as if absent
			}
			e.statted = true
		}
		if e.mode&^(fs.ModeDir|fs.ModeSymlink) == 0 {
			visit(&e)
		}
	})
}

// childPath is d.Join(name) for a name read from folder d, which is one valid path
// element ("." and ".." are never listed): no cleaning is needed.
func childPath(d vpath.Path, name string) vpath.Path {
	if d == "" {
		return vpath.Path(name)
	}
	return vpath.Path(string(d) + "/" + name)
}

// link follows the symbolic link at p if it stays inside the vault.
func (w *walker) link(p vpath.Path, hops int, files []FileInfo, subs []sub) ([]FileInfo, []sub) {
	st, err := w.v.root.Stat(osName(p)) // fails if the link leaves the vault
	switch {
	case err != nil || p.Ignored():
	case st.Mode().IsRegular():
		files = append(files, FileInfo{Path: p, Size: st.Size(), ModTime: st.ModTime()})
	case st.IsDir() && hops < maxLinkHops && !w.isAncestor(p, st):
		subs = append(subs, sub{p, hops + 1})
	}
	return files, subs
}

// isAncestor reports whether the folder st is one of the folders holding p, which
// would make following it a cycle.
func (w *walker) isAncestor(p vpath.Path, st os.FileInfo) bool {
	for d := p.Dir(); ; d = d.Dir() {
		if a, err := w.v.root.Stat(osName(d)); err == nil && os.SameFile(a, st) {
			return true
		}
		if d == "" {
			return false
		}
	}
}

// validNameBytes reports whether a file name, as dirents.List gives it, can be part of a
// vault path: UTF-8, without a backslash or a zero byte.
func validNameBytes(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, '\\') < 0 && bytes.IndexByte(b, 0) < 0
}
