package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// MaxNoteBytes is the largest note indexed; larger notes are listed by name only.
const MaxNoteBytes = 64 << 20

// Options configure Open.
type Options struct {
	// SaveDelay is how long after a change the index is saved in the background;
	// 0 means 5 seconds. A negative value disables saving (tests of the in-memory
	// index).
	SaveDelay time.Duration
	// Progress, when set, hears how far Open is in reading the notes it must index:
	// once with done 0 before the first, then after every note, from one goroutine.
	// It is not called when no note needs reading.
	Progress func(done, total int)
	// Deferred lets Open return as soon as a persisted index is loaded, while the
	// walk that checks it against the files still runs: the first query or Close
	// waits for the walk and applies what changed, and a pattern search
	// narrows its candidates meanwhile (PatternCandidates). The Stats of Open then
	// describe the load only. Without a persisted index Open builds one at once.
	Deferred bool
}

// Stats describe what Open and Refresh did.
type Stats struct {
	Notes    int           `json:"notes"`
	Loaded   bool          `json:"loaded"`  // the persisted index was read
	Vouched  bool          `json:"vouched"` // brought up to date on a running process's word (vouch.go), without a walk
	Reread   int           `json:"reread"`  // files read again because they changed
	Removed  int           `json:"removed"` // notes gone since the index was saved
	Terms    int           `json:"terms"`   // distinct terms
	Saved    bool          `json:"saved"`   // the index was written back
	Duration time.Duration `json:"duration_ns"`
}

// Index is the full-text and pattern index of one vault.
type Index struct {
	v    vault.State
	opts Options

	mu sync.RWMutex
	x  *postings

	pendMu  sync.Mutex
	pending map[vpath.Path]bool // paths changed since the last apply
	rescan  bool                // the whole vault must be reconciled
	// What changed since the persisted file was written, for the process that
	// vouches for it (vouch.go), guarded by pendMu: since holds the paths reported
	// through Changed (each with the number of its last report), sinceAll the number
	// of the last report of anything (0: none); inflight and inflightAll what
	// refreshPending took and is applying.
	since       map[vpath.Path]uint64
	sinceAll    uint64
	reports     uint64
	inflight    map[vpath.Path]bool
	inflightAll bool
	gen         atomic.Uint64 // the generation of the persisted file the index started from
	unsettled   atomic.Bool   // a deferred Open's walk is not applied yet

	saveMu    sync.Mutex // serialises saves
	timerMu   sync.Mutex // guards saveTimer and closed
	saveTimer *time.Timer
	version   uint64 // bumped by every applied change (guarded by mu)
	savedVer  uint64 // the version last written (guarded by saveMu)
	closed    bool

	semOnce sync.Once
	sem     *semantic // nil until UseEmbedder

	settleMu sync.Mutex
	walking  <-chan walked // the walk of a deferred Open, until settled (guarded by settleMu)
	stopWalk func()        // cancels that walk
}

// walked is the outcome of the walk that checks a loaded index against the files.
type walked struct {
	files []vault.FileInfo
	err   error
}

// Open loads the persisted index of v, brings it up to date with the files (reading
// only those whose size, time or content changed) and returns it. Without a usable
// persisted index, it builds one from every note.
func Open(ctx context.Context, v vault.State, o Options) (*Index, Stats, error) {
	start := time.Now()
	if o.SaveDelay == 0 {
		o.SaveDelay = 5 * time.Second
	}
	ix := &Index{v: v, opts: o, pending: map[vpath.Path]bool{}, since: map[vpath.Path]uint64{}}
	var st Stats
	// A running process whose watcher follows the vault may vouch for the persisted
	// index: it is asked while the file loads, and the walk is left out if it answers.
	// Otherwise the vault is walked while the file loads: the two are independent.
	question := ask(v)
	walk := make(chan walked, 1)
	wctx, stopWalk := context.WithCancel(ctx)
	if o.Deferred {
		// The walk outlives Open; settle consumes it, or NarrowCandidates stops it.
		wctx, stopWalk = context.WithCancel(context.WithoutCancel(ctx))
	}
	ix.stopWalk = stopWalk
	startWalk := func() {
		go func() {
			files, err := v.Walk(wctx)
			walk <- walked{files, err}
		}()
	}
	if question == nil {
		startWalk()
	}
	x, err := load(v)
	switch {
	case err == nil:
		st.Loaded = true
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, vault.ErrNotFound) || errors.Is(err, errFormat):
		x = newPostings()
	default:
		question.drop()
		if question == nil {
			<-walk
		}
		return nil, st, err
	}
	ix.x = x
	ix.gen.Store(x.gen)
	if question != nil {
		if changed, ok := question.answer(ctx, x.gen); ok && st.Loaded {
			// Only the notes changed since the file was written are read again. They
			// stay out of this process's saves: the voucher saves them.
			ix.Changed(changed, false)
			if err := ix.refreshPending(ctx); err != nil {
				return nil, st, err
			}
			ix.saveMu.Lock()
			ix.savedVer = ix.version
			ix.saveMu.Unlock()
			st.Reread, st.Vouched = len(changed), true
			st.Notes, st.Terms = ix.x.live, ix.x.numTerms()
			st.Duration = time.Since(start)
			return ix, st, nil
		}
		startWalk()
	}
	if o.Deferred && st.Loaded {
		ix.unsettled.Store(true)
		ix.walking = walk
		st.Notes, st.Terms = ix.x.live, ix.x.numTerms()
		st.Duration = time.Since(start)
		return ix, st, nil
	}
	if err := ix.catchUp(ctx, &st, <-walk); err != nil {
		return nil, st, err
	}
	st.Notes, st.Terms = ix.x.live, ix.x.numTerms()
	st.Duration = time.Since(start)
	return ix, st, nil
}

// catchUp applies what the walk w found changed since the index was saved, and saves
// the index if anything did (or if it was built rather than loaded).
func (ix *Index) catchUp(ctx context.Context, st *Stats, w walked) error {
	if w.err != nil {
		return fmt.Errorf("search index: %w", w.err)
	}
	if err := ix.reconcileWith(ctx, st, w.files); err != nil {
		return err
	}
	if ix.version > 0 || !st.Loaded {
		if err := ix.save(true); err != nil {
			return err
		}
		st.Saved = true
	}
	return nil
}

// settle finishes a deferred Open: it waits for its walk and applies what changed.
// A failure leaves a rescan pending, so the next Refresh tries again.
func (ix *Index) settle(ctx context.Context) error {
	ix.settleMu.Lock()
	defer ix.settleMu.Unlock()
	if ix.walking == nil {
		return nil
	}
	w := <-ix.walking
	ix.walking = nil
	defer ix.unsettled.Store(false)
	if err := ix.catchUp(ctx, &Stats{Loaded: true}, w); err != nil {
		ix.Changed(nil, true)
		return err
	}
	return nil
}

// Close saves pending changes and stops the background saver.
func (ix *Index) Close() error {
	_ = ix.settle(context.Background()) // a failure is redone at the next open
	ix.stopWalk()
	ix.timerMu.Lock()
	ix.closed = true
	if ix.saveTimer != nil {
		ix.saveTimer.Stop()
	}
	ix.timerMu.Unlock()
	return ix.Save()
}

// Changed tells the index that the files or folders at paths changed (rescan: that
// anything may have changed). It is cheap and never blocks on I/O: the next query
// applies the changes, or, when none comes, the background saver SaveDelay later
// (so that the persisted index follows the vault). Wire it to the library's change
// notifications.
func (ix *Index) Changed(paths []vpath.Path, rescan bool) {
	if len(paths) > 0 || rescan {
		defer ix.scheduleSave()
	}
	ix.pendMu.Lock()
	defer ix.pendMu.Unlock()
	ix.reports++
	if rescan {
		ix.rescan = true
		ix.sinceAll = ix.reports
	}
	for _, p := range paths {
		ix.pending[p] = true
		ix.since[p] = ix.reports
	}
}

// Refresh applies the changes reported through Changed (and finishes a deferred
// Open). Queries call it first.
func (ix *Index) Refresh(ctx context.Context) error {
	if err := ix.settle(ctx); err != nil {
		return err
	}
	return ix.refreshPending(ctx)
}

// refreshPending applies the changes reported through Changed.
func (ix *Index) refreshPending(ctx context.Context) error {
	ix.pendMu.Lock()
	rescan, paths := ix.rescan, ix.pending
	ix.rescan, ix.pending = false, map[vpath.Path]bool{}
	ix.inflight, ix.inflightAll = paths, rescan
	ix.pendMu.Unlock()
	defer func() {
		ix.pendMu.Lock()
		ix.inflight, ix.inflightAll = nil, false
		ix.pendMu.Unlock()
	}()
	if !rescan && len(paths) == 0 {
		return nil
	}
	var st Stats
	var err error
	if rescan {
		err = ix.reconcile(ctx, &st)
	} else {
		list := make([]vpath.Path, 0, len(paths))
		for p := range paths {
			list = append(list, p)
		}
		err = ix.update(ctx, list)
	}
	if err != nil {
		ix.Changed(nil, true) // try again next time
		return err
	}
	ix.scheduleSave()
	return nil
}

// reconcile walks the vault and re-reads every note whose size or time differs from
// the index, removing the notes that are gone.
func (ix *Index) reconcile(ctx context.Context, st *Stats) error {
	files, err := ix.v.Walk(ctx)
	if err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return ix.reconcileWith(ctx, st, files)
}

// reconcileWith is reconcile with the vault's files already listed.
func (ix *Index) reconcileWith(ctx context.Context, st *Stats, files []vault.FileInfo) error {
	changed, gone := ix.diff(files)
	reread, err := ix.readAndApply(ctx, changed, gone, ix.opts.Progress)
	st.Reread, st.Removed = reread, len(gone)
	return err
}

// diff compares the index with the vault's files: the notes new or changed (by size
// or time) since they were indexed, and the indexed notes that are gone.
func (ix *Index) diff(files []vault.FileInfo) (changed []vault.FileInfo, gone []vpath.Path) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	seen := make([]bool, ix.x.n()) // by document id
	for _, f := range files {
		if f.IsDir || !f.Path.IsNote() || f.Path.Ignored() {
			continue
		}
		id, ok := ix.x.lookup(f.Path)
		if ok {
			seen[id] = true
			if size, mtime, _ := ix.x.stampOf(id); size == f.Size && mtime == f.ModTime.UnixNano() {
				continue
			}
		}
		changed = append(changed, f)
	}
	for id := range uint32(len(seen)) {
		if !seen[id] && ix.x.alive(id) {
			gone = append(gone, ix.x.path(id))
		}
	}
	return changed, gone
}

// update re-reads the given files or folders.
func (ix *Index) update(ctx context.Context, paths []vpath.Path) error {
	var files []vault.FileInfo
	var gone []vpath.Path
	for _, p := range paths {
		if p == "" || p.Ignored() {
			continue
		}
		info, err := ix.v.Stat(p)
		switch {
		case err != nil:
			gone = append(gone, ix.under(p)...)
		case info.IsDir:
			gone = append(gone, ix.under(p)...) // re-added below if still there
			sub, err := ix.v.WalkUnder(ctx, p)
			if err != nil {
				return fmt.Errorf("search index: %w", err)
			}
			for _, f := range sub {
				if f.Path.IsNote() {
					if st, err := ix.v.Stat(f.Path); err == nil {
						files = append(files, vault.FileInfo{Path: f.Path, Size: st.Size, ModTime: st.ModTime})
					}
				}
			}
		case p.IsNote():
			files = append(files, vault.FileInfo{Path: p, Size: info.Size, ModTime: info.ModTime})
		}
	}
	_, err := ix.readAndApply(ctx, files, gone, nil)
	return err
}

// under lists the indexed notes at or below p.
func (ix *Index) under(p vpath.Path) []vpath.Path {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []vpath.Path
	for _, id := range ix.x.persistedUnder(p) {
		out = append(out, ix.x.path(id))
	}
	prefix := string(p) + "/"
	for q := range ix.x.byPath {
		if q == p || strings.HasPrefix(string(q), prefix) {
			out = append(out, q)
		}
	}
	return out
}
