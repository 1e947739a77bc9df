package vault

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/vpath"
)

// MaxStageBytes bounds what one stage holds in memory: the content of every file it
// wrote. A transaction that would hold more is refused with ErrStageFull.
const MaxStageBytes = 512 << 20

// ErrStageFull means a transaction's writes would hold more than MaxStageBytes.
var ErrStageFull = errors.New("the transaction holds too much: its writes would keep more than 512 MiB in memory until it ends")

// Stage is a transaction over a vault (a Starlark script's): its Vault reads the
// folder through it and writes into it, in memory, and nothing reaches the disk until
// Batch's changes are applied (by the library, with Apply). A file's first write
// records the content the transaction found on disk (its base), and Batch makes every
// change a compare-and-swap on that base, so that applying the batch refuses, whole,
// a transaction that someone else's write overtook: nothing is ever written over
// another writer's acknowledged change, and a transaction that ends otherwise (it
// failed, was a dry run, its process died) is simply forgotten, having written
// nothing.
//
// A staged Vault shares everything else with its base: the lock, the caches and
// MemoTree's own files in .memotree (views, settings), the journey as read. Its
// writes check what the base's writes check (content paths, symbolic links, regular
// files, read-only notes, CreateOnly and IfHash against what the transaction sees),
// so a tool meets the same errors in a transaction as outside one. Folders are not
// staged: a transaction cannot remove or move a folder, and the folders its files
// need are made when the batch is applied.
//
// Concurrency: a Stage is safe for concurrent use; its Vault may be read from many
// goroutines while another writes.
type Stage struct {
	base *Vault
	view *Vault

	mu      sync.Mutex
	files   map[vpath.Path]*txFile
	order   []vpath.Path // in the order first staged
	journey []Entry
	size    int64
	started time.Time
}

// txFile is one path a transaction wrote.
type txFile struct {
	data   []byte
	exists bool // false: the transaction removed it (or moved it away)
	// had and pre are what the disk held when the transaction first wrote the path,
	// base its hash ("" when no file was there), perm its permission bits.
	had  bool
	pre  []byte
	base Hash
	perm fs.FileMode
	// from is where a file the transaction moved here came from.
	from vpath.Path
}

// NewStage returns a transaction over v, which must not itself be staged.
func NewStage(v *Vault) *Stage {
	if v.stage != nil {
		v = v.stage.base
	}
	s := &Stage{base: v, files: map[vpath.Path]*txFile{}, started: time.Now()}
	s.view = &Vault{state: v.state, stage: s}
	return s
}

// Vault returns the vault as the transaction sees it: reads go through the stage,
// writes into it.
func (s *Stage) Vault() *Vault { return s.view }

// Base returns the vault the transaction is over.
func (s *Stage) Base() *Vault { return s.base }

// StagedFile is one file a transaction changed: what the disk held when the
// transaction first wrote it, and what the transaction leaves.
type StagedFile struct {
	Path vpath.Path
	// Before is the content the transaction found (nil when Existed is false).
	Existed bool
	Before  []byte
	// After is the content the transaction leaves (nil when Exists is false).
	Exists bool
	After  []byte
}

// Changed lists the files the transaction changed, in the order first written; a
// file written back as it was, or created and removed again, is not listed.
func (s *Stage) Changed() []StagedFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []StagedFile
	for _, p := range s.order {
		f := s.files[p]
		if f.unchanged() {
			continue
		}
		sf := StagedFile{Path: p, Existed: f.had, Exists: f.exists}
		if f.had {
			sf.Before = f.pre
		}
		if f.exists {
			sf.After = f.data
		}
		out = append(out, sf)
	}
	return out
}

// unchanged reports whether f leaves the path as the transaction found it.
func (f *txFile) unchanged() bool {
	if f.had != f.exists {
		return false
	}
	return !f.had || HashOf(f.data) == f.base
}

// Batch returns the transaction's changes as one batch for Apply, each a
// compare-and-swap on what the transaction found (IfHash on the base, CreateOnly
// where no file was), removals first, and the journey entries its writes recorded.
// Applied with WriteOptions.Journey set to the entries, the whole transaction lands
// or, if anyone changed one of its files since it first wrote it, none of it
// (ErrConflict, ErrExists).
func (s *Stage) Batch() ([]Change, []Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var dels, writes []Change
	for _, p := range s.order {
		f := s.files[p]
		if f.unchanged() {
			continue
		}
		c := Change{Path: p, IfHash: f.base, CreateOnly: !f.had}
		if !f.exists {
			c.Delete, c.CreateOnly = true, false
			dels = append(dels, c)
			continue
		}
		c.Data, c.From = f.data, f.from
		if !f.had && f.perm != 0 {
			c.mode = f.perm // a moved file keeps its permissions
		}
		writes = append(writes, c)
	}
	return slices.Concat(dels, writes), slices.Clone(s.journey)
}

// lookup returns the staged file at p, following a symbolic link on disk to a staged
// target; nil when the transaction has not written it. The caller holds s.mu.
func (s *Stage) lookup(p vpath.Path) *txFile {
	if f := s.files[p]; f != nil {
		return f
	}
	if len(s.files) == 0 {
		return nil
	}
	if t, err := s.base.resolve(p); err == nil && t != p {
		return s.files[t]
	}
	return nil
}

// resolveAt returns the path a write to p lands on, symbolic links followed as the
// base's writes follow them, and the mode of what is there (absent when nothing is).
func (v *Vault) resolveAt(p vpath.Path) (vpath.Path, fs.FileMode, error) {
	dirs := v.newBatchDirs()
	defer dirs.close()
	return v.resolveWith(dirs, p)
}

// load returns the file at p as the transaction sees it, and the path a write to p
// lands on (symbolic links followed as the base's writes follow them). A file not
// staged yet is read from disk and returned unstaged (staged reports whether it is
// in s.files). The caller holds s.mu.
func (s *Stage) load(p vpath.Path) (f *txFile, target vpath.Path, staged bool, err error) {
	if f := s.files[p]; f != nil {
		return f, p, true, nil
	}
	t, mode, err := s.base.resolveAt(p)
	if err != nil {
		return nil, "", false, err
	}
	if f := s.files[t]; f != nil {
		return f, t, true, nil
	}
	f = &txFile{}
	switch {
	case mode == absent:
		if err := s.folderFor(t); err != nil {
			return nil, "", false, err
		}
		return f, t, false, nil
	case mode.IsDir():
		return nil, "", false, fmt.Errorf("%w: a folder has this name", ErrExists)
	case !mode.IsRegular():
		return nil, "", false, notRegular(mode)
	}
	file, st, err := openRegular(s.base.root, osName(t))
	if err != nil {
		return nil, "", false, mapErr(err)
	}
	defer file.Close()
	b, err := io.ReadAll(file)
	if err != nil {
		return nil, "", false, fmt.Errorf("read %s: %w", t, err)
	}
	f.had, f.exists, f.pre, f.data, f.base, f.perm = true, true, b, b, HashOf(b), st.Mode().Perm()
	return f, t, false, nil
}

// folderFor checks that a file may be created at p: no folder above it is a file, on
// disk or in the transaction. The caller holds s.mu.
func (s *Stage) folderFor(p vpath.Path) error {
	for d := p.Dir(); d != ""; d = d.Dir() {
		if f := s.files[d]; f != nil && f.exists {
			return fmt.Errorf("%w: %s is a file, not a folder", ErrExists, d)
		}
		st, err := s.base.root.Stat(osName(d))
		if err == nil && !st.IsDir() {
			return fmt.Errorf("%w: %s is a file, not a folder", ErrExists, d)
		}
		if err == nil {
			return nil
		}
	}
	return nil
}

// put stages f at p (a path load returned), within the size bound. The caller holds
// s.mu.
func (s *Stage) put(p vpath.Path, f *txFile, staged bool, data []byte, exists bool) error {
	grow := int64(len(data))
	if staged {
		grow -= int64(len(f.data))
	} else {
		grow += int64(len(f.pre))
	}
	if s.size+grow > MaxStageBytes {
		return ErrStageFull
	}
	s.size += grow
	f.data, f.exists = data, exists
	if !staged {
		s.files[p] = f
		s.order = append(s.order, p)
	}
	return nil
}

// record keeps a journey entry for when the batch is applied. The caller holds s.mu.
func (s *Stage) record(o WriteOptions, e Entry, opErr error) {
	if o.Actor == "" {
		return
	}
	e.Time = time.Now().Round(0).Truncate(time.Millisecond)
	e.Actor, e.Outcome, e.Turn, e.Session = o.Actor, "ok", o.Turn, o.Session
	if opErr != nil {
		e.Outcome = opErr.Error()
	}
	s.journey = append(s.journey, e)
}

// check tells whether a write of data may replace f under the conditions of o.
func (f *txFile) check(o WriteOptions) error {
	switch {
	case o.CreateOnly && f.exists:
		return ErrExists
	case f.exists && f.perm != 0 && readOnly(f.perm):
		return ErrReadOnly
	case o.IfHash != "" && !f.exists:
		return fmt.Errorf("%w: it no longer exists", ErrConflict)
	case o.IfHash != "" && HashOf(f.data) != o.IfHash:
		return fmt.Errorf("%w: content hash is %.12s, not %.12s", ErrConflict, HashOf(f.data), o.IfHash)
	}
	return nil
}

// write is Vault.Write in the transaction.
func (s *Stage) write(p vpath.Path, data []byte, o WriteOptions) (Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.writeLocked(p, data, o)
	if err != nil {
		err = fmt.Errorf("write %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "write"
	}
	s.record(o, Entry{Op: op, Entities: []string{string(p)}, Args: writeArgs(len(data), o)}, err)
	if err != nil {
		return "", err
	}
	return HashOf(data), nil
}

func (s *Stage) writeLocked(p vpath.Path, data []byte, o WriteOptions) error {
	if err := checkContent(p); err != nil {
		return err
	}
	f, t, staged, err := s.load(p)
	if err != nil {
		return err
	}
	if err := f.check(o); err != nil {
		return err
	}
	return s.put(t, f, staged, data, true)
}

// apply is Vault.Apply in the transaction: every condition is checked before anything
// is staged.
func (s *Stage) apply(changes []Change, o WriteOptions) ([]Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applyLocked(changes, o)
}

func (s *Stage) applyLocked(changes []Change, o WriteOptions) ([]Hash, error) {
	type planned struct {
		f      *txFile
		target vpath.Path
		staged bool
	}
	plan := make([]planned, len(changes))
	seen := map[vpath.Path]bool{}
	for i, c := range changes {
		if err := checkContent(c.Path); err != nil {
			return nil, pathErr(c.Path, err)
		}
		f, t, staged, err := s.load(c.Path)
		if err != nil {
			return nil, pathErr(c.Path, err)
		}
		if seen[t] {
			return nil, pathErr(c.Path, errors.New("changed twice in one batch"))
		}
		seen[t] = true
		if err := f.check(WriteOptions{CreateOnly: c.CreateOnly && !c.Delete, IfHash: c.IfHash}); err != nil {
			return nil, pathErr(c.Path, err)
		}
		plan[i] = planned{f, t, staged}
	}
	hashes := make([]Hash, len(changes))
	for i, c := range changes {
		pl := plan[i]
		if c.Delete {
			if err := s.put(pl.target, pl.f, pl.staged, nil, false); err != nil {
				return nil, pathErr(c.Path, err)
			}
			continue
		}
		if c.From != "" && !pl.staged && !pl.f.had {
			pl.f.from = c.From
		}
		if err := s.put(pl.target, pl.f, pl.staged, c.Data, true); err != nil {
			return nil, pathErr(c.Path, err)
		}
		hashes[i] = HashOf(c.Data)
	}
	for _, e := range batchEntries(changes, o, time.Now()) {
		s.journey = append(s.journey, e)
	}
	return hashes, nil
}

// update is Vault.Update in the transaction: fn sees the files as the transaction
// does, and its changes are made on the condition of what it saw.
func (s *Stage) update(paths []vpath.Path, fn UpdateFunc, o WriteOptions) ([]Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := make(map[vpath.Path]Current, len(paths))
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return nil, fmt.Errorf("update %s: %w", p, err)
		}
		f, _, _, err := s.load(p)
		switch {
		case errors.Is(err, ErrExists):
			return nil, fmt.Errorf("update %s: %w", p, err)
		case err != nil:
			return nil, fmt.Errorf("update %s: %w", p, err)
		case f.exists:
			cur[p] = Current{Data: f.data, Hash: HashOf(f.data), Exists: true}
		default:
			cur[p] = Current{}
		}
	}
	changes, err := fn(cur)
	if err != nil || len(changes) == 0 {
		return nil, err
	}
	for i := range changes {
		c := &changes[i]
		r, read := cur[c.Path]
		switch {
		case !read || c.IfHash != "" || c.CreateOnly:
		case r.Exists:
			c.IfHash = r.Hash
		case !c.Delete:
			c.CreateOnly = true
		}
	}
	return s.applyLocked(changes, o)
}

// updateFile is Vault.UpdateFile in the transaction.
func (s *Stage) updateFile(p vpath.Path, fn func(cur []byte, exists bool) ([]byte, error), o WriteOptions) (Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	op := o.Op
	if op == "" {
		op = "write"
	}
	if err := checkContent(p); err != nil {
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	f, t, staged, err := s.load(p)
	if err == nil && o.IfHash != "" {
		err = f.check(WriteOptions{IfHash: o.IfHash})
	}
	if err != nil {
		err = fmt.Errorf("write %s: %w", p, err)
		s.record(o, Entry{Op: op, Entities: []string{string(p)}}, err)
		return "", err
	}
	var cur []byte
	if f.exists {
		cur = f.data
	}
	data, err := fn(cur, f.exists)
	if err != nil {
		return "", err
	}
	err = f.check(WriteOptions{})
	if err == nil {
		err = s.put(t, f, staged, data, true)
	}
	if err != nil {
		err = fmt.Errorf("write %s: %w", p, err)
		s.record(o, Entry{Op: op, Entities: []string{string(p)}}, err)
		return "", err
	}
	s.record(o, Entry{Op: op, Entities: []string{string(p)}, Args: fmt.Sprintf("%d bytes", len(data))}, nil)
	return HashOf(data), nil
}

// remove is Vault.RemoveWith in the transaction. A folder is refused: folders are
// not staged.
func (s *Stage) remove(p vpath.Path, o WriteOptions) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.removeLocked(p, o.IfHash)
	if err != nil {
		err = fmt.Errorf("remove %s: %w", p, err)
	}
	op := o.Op
	if op == "" {
		op = "remove"
	}
	s.record(o, Entry{Op: op, Entities: []string{string(p)}}, err)
	return err
}

func (s *Stage) removeLocked(p vpath.Path, ifHash Hash) error {
	if err := checkContent(p); err != nil {
		return err
	}
	f, t, staged, err := s.load(p)
	switch {
	case errors.Is(err, ErrExists):
		return errors.New("a folder cannot be removed inside a script: remove it outside one")
	case err != nil:
		return err
	case t != p:
		return fmt.Errorf("%s is a symbolic link, which a script cannot remove: remove it outside one", p)
	case !f.exists:
		return ErrNotFound
	}
	if err := f.check(WriteOptions{IfHash: ifHash}); err != nil {
		return err
	}
	return s.put(t, f, staged, nil, false)
}

// rename is Vault.RenameWith in the transaction: the file's content moves, as a
// removal and a creation applied together.
func (s *Stage) rename(from, to vpath.Path, o WriteOptions) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.renameLocked(from, to, o.IfHash)
	if err != nil {
		err = fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	op := o.Op
	if op == "" {
		op = "rename"
	}
	s.record(o, Entry{Op: op, Entities: []string{string(from), string(to)}, From: string(from)}, err)
	return err
}

func (s *Stage) renameLocked(from, to vpath.Path, ifHash Hash) error {
	if err := checkContent(from); err != nil {
		return err
	}
	if err := checkContent(to); err != nil {
		return err
	}
	src, st, srcStaged, err := s.load(from)
	switch {
	case errors.Is(err, ErrExists):
		return errors.New("a folder cannot be moved inside a script: move it outside one")
	case err != nil:
		return err
	case st != from:
		return fmt.Errorf("%s is a symbolic link, which a script cannot move: move it outside one", from)
	case !src.exists:
		return ErrNotFound
	}
	if err := src.check(WriteOptions{IfHash: ifHash}); err != nil {
		return err
	}
	dst, dt, dstStaged, err := s.load(to)
	if err != nil {
		return err
	}
	if dst.exists && !dstStaged && s.base.respelled(st, dt) {
		dst = &txFile{} // the source itself, where case is ignored: Apply renames it
	}
	if dst.exists {
		return fmt.Errorf("%w: %s", ErrExists, to)
	}
	data, perm := src.data, src.perm
	if err := s.put(from, src, srcStaged, nil, false); err != nil {
		return err
	}
	if !dstStaged && !dst.had {
		dst.from, dst.perm = from, perm
	}
	return s.put(dt, dst, dstStaged, data, true)
}

// appendJourney is Vault.AppendJourney in the transaction: the entry is recorded when
// the batch is applied.
func (s *Stage) appendJourney(e Entry) error {
	e, err := e.complete()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.journey = append(s.journey, e)
	return nil
}

// appendJourneyText is Vault.AppendJourneyEntries in the transaction.
func (s *Stage) appendJourneyText(text []byte) error {
	entries, bad := ParseJourney(text)
	if len(bad) > 0 {
		return fmt.Errorf("append journey: %d entries do not parse", len(bad))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.journey = append(s.journey, entries...)
	return nil
}

// readFile is Vault.ReadFile in the transaction.
func (s *Stage) readFile(p vpath.Path) ([]byte, error) {
	if err := checkPath(p); err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	s.mu.Lock()
	f := s.lookup(p)
	s.mu.Unlock()
	if f == nil {
		return s.base.ReadFile(p)
	}
	if !f.exists {
		return nil, fmt.Errorf("read %s: %w", p, ErrNotFound)
	}
	return f.data, nil
}

// stat is Vault.Stat in the transaction: a staged file has the stage's start as its
// time; a folder holding a staged file exists.
func (s *Stage) stat(p vpath.Path) (FileInfo, error) {
	if err := checkPath(p); err != nil {
		return FileInfo{}, fmt.Errorf("stat %s: %w", p, err)
	}
	s.mu.Lock()
	f := s.lookup(p)
	under := p == "" || s.holdsUnder(p)
	s.mu.Unlock()
	if f != nil {
		if !f.exists {
			return FileInfo{}, fmt.Errorf("stat %s: %w", p, ErrNotFound)
		}
		return FileInfo{Path: p, Size: int64(len(f.data)), ModTime: s.started}, nil
	}
	fi, err := s.base.Stat(p)
	if errors.Is(err, ErrNotFound) && under {
		return FileInfo{Path: p, IsDir: true, ModTime: s.started}, nil
	}
	return fi, err
}

// holdsUnder reports whether a file the transaction leaves lies below the folder dir.
// The caller holds s.mu.
func (s *Stage) holdsUnder(dir vpath.Path) bool {
	prefix := string(dir) + "/"
	for p, f := range s.files {
		if f.exists && strings.HasPrefix(string(p), prefix) {
			return true
		}
	}
	return false
}

// overlay returns the base's listing of the files below from (every file when from is
// empty) with the transaction's writes laid over it, sorted by path.
func (s *Stage) overlay(list []FileInfo, from vpath.Path) []FileInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.files) == 0 {
		return list
	}
	out := make([]FileInfo, 0, len(list)+len(s.files))
	for _, fi := range list {
		if f := s.files[fi.Path]; f != nil {
			if !f.exists {
				continue
			}
			fi.Size = int64(len(f.data))
		}
		out = append(out, fi)
	}
	prefix := string(from) + "/"
	for p, f := range s.files {
		if !f.exists || f.had || from != "" && !strings.HasPrefix(string(p), prefix) || p.Ignored() {
			continue
		}
		if _, found := slices.BinarySearchFunc(list, p, func(fi FileInfo, p vpath.Path) int { return strings.Compare(string(fi.Path), string(p)) }); found {
			continue
		}
		out = append(out, FileInfo{Path: p, Size: int64(len(f.data)), ModTime: s.started})
	}
	slices.SortFunc(out, func(a, b FileInfo) int { return strings.Compare(string(a.Path), string(b.Path)) })
	return out
}

// walk is Vault.walk in the transaction.
func (s *Stage) walk(ctx context.Context, from vpath.Path, stat bool) ([]FileInfo, error) {
	list, err := s.base.walk(ctx, from, stat)
	if err != nil {
		return nil, err
	}
	return s.overlay(list, from), nil
}

// walkNames is Vault.WalkNames in the transaction.
func (s *Stage) walkNames(ctx context.Context) ([]vpath.Path, error) {
	list, err := s.walk(ctx, "", false)
	if err != nil {
		return nil, err
	}
	out := make([]vpath.Path, len(list))
	for i, fi := range list {
		out[i] = fi.Path
	}
	return out, nil
}

// readMany is Vault.ReadMany in the transaction: staged files are handed to fn from
// memory, the others read by the base.
func (s *Stage) readMany(ctx context.Context, paths []vpath.Path, o ReadManyOptions, fn func(i int, data []byte, err error)) error {
	type mem struct {
		i int
		f *txFile
	}
	var staged []mem
	var rest []vpath.Path
	var restIdx []int
	s.mu.Lock()
	for i, p := range paths {
		if f := s.lookup(p); f != nil {
			staged = append(staged, mem{i, f})
			continue
		}
		rest, restIdx = append(rest, p), append(restIdx, i)
	}
	s.mu.Unlock()
	for _, m := range staged {
		switch {
		case !m.f.exists:
			fn(m.i, nil, fmt.Errorf("read %s: %w", paths[m.i], ErrNotFound))
		case o.MaxSize > 0 && int64(len(m.f.data)) > o.MaxSize:
			fn(m.i, nil, fmt.Errorf("read %s: %w", paths[m.i], ErrTooLarge))
		default:
			fn(m.i, m.f.data, nil)
		}
	}
	if len(rest) == 0 {
		return ctx.Err()
	}
	return s.base.ReadMany(ctx, rest, o, func(i int, data []byte, err error) { fn(restIdx[i], data, err) })
}
