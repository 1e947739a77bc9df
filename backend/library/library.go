// Package library keeps one mounted vault indexed: it scans the folder, parses every
// note in parallel into the link graph, and, when watching, applies the watcher's
// batches so that the graph follows edits made by anyone, publishing a VaultChanged
// event after each applied batch. The index keeps a bounded part of a huge note
// (Max*PerNote, with a warning). A watching library also finishes, at once, a batch
// of writes whose writer died after recording its intent (see crashedBatches).
//
// The library owns its writes: Write, Apply and Update write through the vault and
// index what they wrote before returning, so that no writer has to remember to
// refresh the graph, and a caller's cancellation cannot leave a landed write
// unindexed. Nothing else can write a note: Vault hands out a read-only view, State
// one that writes only the vault's own files (.memotree, the caches). Git is opened
// through it alone (Git, InitGit) and writes through it (it is the gitrepo.Writer),
// and every change of the repository is announced from it (GitChanged publishes
// event.GitChanged); arch_writes_test.go keeps the rest of the code to that. Graph returns the
// graph with the error of the scan that loads it; a scan that failed or was
// cancelled is run again by the next caller, so a lazily opened library never keeps
// an empty graph.
//
// Concurrency: a Library is safe for concurrent use. Reads go to the graph (which has its
// own lock); batches are applied by one goroutine, in order.
package library

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/internal/osmem"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/watch"
)

// MaxNoteBytes is the largest note that is parsed; a larger file is listed, reported in
// the warnings and not indexed.
const MaxNoteBytes = 64 << 20

// A full scan of at least hugeHeapMinNotes notes prepares heapPerNote bytes of heap
// a note for huge pages (osmem.PrepareHugeHeap): about what parsing and resolving
// one note leaves on the heap. A smaller library's heap stays small, where a partly
// used 2 MB page only adds to its peak memory.
const (
	heapPerNote      = 10 << 10
	hugeHeapMinNotes = 2000
)

// Options configure Open.
type Options struct {
	// Watch keeps the index current with fsnotify until Close.
	Watch bool
	// Bus receives a VaultChanged event after every applied change (may be nil).
	Bus *event.Bus
	// Debounce is the watcher's debounce interval (0 means its default).
	Debounce time.Duration
	// Lazy defers the full scan until the graph is first needed, so that a one-shot
	// command that only reads a note by its path never parses the whole vault.
	// Lazy libraries cannot watch.
	Lazy bool
	// KeepTemps leaves the temporary files of crashed writes that the scan finds
	// (memotree doctor reports them, and removes them only when asked); otherwise
	// the scan removes them.
	KeepTemps bool
	// BeforeRead, when set, is called during every full scan, once the vault is
	// listed and before any note is read, with the number of notes to read.
	BeforeRead func(notes int)
	// Background, with Watch, makes the first scan run in the background: Open
	// returns once the vault is open and watched, whatever needs the graph waits for
	// the scan, and the scan's progress goes out on the bus (TaskProgress). The app
	// and serve open libraries this way, so that the window is up and shows the
	// progress before a large vault is read. A scan that fails leaves the graph
	// unloaded: the final progress event carries its error, and Graph scans again.
	Background bool
	// CacheDir, when set, holds the vault's caches (its search index) for as long as
	// the vault has no .memotree folder, so that opening a folder writes nothing in it
	// (see vault.SetCacheDir).
	CacheDir string
	// Once says the library is read once and not kept current (memotree index): a
	// full scan then keeps no fingerprints of the notes' contents. Fingerprints only
	// let a change or a write skip a note whose content is unchanged; without one,
	// such a note is parsed and set again, with the same result.
	Once bool
}

// FileWarning is a parse warning attached to the file it came from.
type FileWarning struct {
	Path    vpath.Path `json:"path"`
	Line    int        `json:"line"`
	Message string     `json:"message"`
}

// Library is one mounted, indexed vault.
type Library struct {
	name  string
	vault *vault.Vault
	graph *graph.Graph
	bus   *event.Bus

	mu       sync.Mutex
	warnings map[vpath.Path][]note.Warning
	sums     map[vpath.Path]uint64 // content fingerprint of every indexed note
	cut      map[vpath.Path]bool   // notes the index keeps only part of (see bound)
	seed     maphash.Seed

	watcher  *watch.Watcher
	done     chan struct{}
	stopScan context.CancelFunc // cancels a background scan; nil otherwise
	crashed  *crashedBatches    // finishes crashed batches; nil unless watching

	keepTemps  bool            // Options.KeepTemps
	beforeRead func(notes int) // Options.BeforeRead
	once       bool            // Options.Once
	load       loadState       // the full scan that loads the graph (load.go)

	subMu  sync.Mutex
	subs   map[int]func(paths []vpath.Path, rescan bool)
	fences map[int]func(names []string)
	nextID int

	closeMu  sync.Mutex
	onClose  []func() // run by Close, in order, before the vault closes
	isClosed bool

	// parent and stage are set on a transaction's fork (see Fork): the library it
	// was made from, and the stage its vault writes into.
	parent *Library
	stage  *vault.Stage
}

// OnClose registers fn to run when the library closes, before its watcher stops and
// its vault closes, so that what was derived from it (a search index saving itself, a
// cache) can let go of it while the vault is still readable. A library mounted and
// unmounted at run time is closed alone, long before its process ends. One registered
// after Close runs at once, on a goroutine of its own (its caller may hold a lock fn
// takes).
func (l *Library) OnClose(fn func()) {
	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	if l.isClosed {
		go fn()
		return
	}
	l.onClose = append(l.onClose, fn)
}

// Subscribe registers fn to be called, synchronously and in order, after every change
// the library applies: with the changed file paths, or rescan set when anything may
// have changed. fn must be quick and must not call back into the library (derived
// indexes note the paths and do the work later). cancel unregisters it.
func (l *Library) Subscribe(fn func(paths []vpath.Path, rescan bool)) (cancel func()) {
	l.subMu.Lock()
	defer l.subMu.Unlock()
	if l.subs == nil {
		l.subs = map[int]func([]vpath.Path, bool){}
	}
	id := l.nextID
	l.nextID++
	l.subs[id] = fn
	return func() {
		l.subMu.Lock()
		delete(l.subs, id)
		l.subMu.Unlock()
	}
}

// SubscribeFences registers fn to be called with the names of the fence files the
// watcher saw (watch.FencePrefix…, in .memotree), once every change made before them
// has been applied and published to the subscribers of Subscribe: another process
// that created a fence learns from whoever answers it that this library has seen
// every change it could have seen. fn runs on the goroutine that applies the
// watcher's batches and must be quick. A library that does not watch never calls it.
func (l *Library) SubscribeFences(fn func(names []string)) (cancel func()) {
	l.subMu.Lock()
	defer l.subMu.Unlock()
	if l.fences == nil {
		l.fences = map[int]func([]string){}
	}
	id := l.nextID
	l.nextID++
	l.fences[id] = fn
	return func() {
		l.subMu.Lock()
		delete(l.fences, id)
		l.subMu.Unlock()
	}
}

// Watching reports whether the library follows the folder with a watcher.
func (l *Library) Watching() bool { return l.watcher != nil }

// Open mounts the vault at dir under name and indexes it.
func Open(ctx context.Context, name, dir string, o Options) (*Library, error) {
	v, err := vault.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open library %s: %w", name, err)
	}
	if err := v.SetCacheDir(o.CacheDir); err != nil {
		v.Close()
		return nil, fmt.Errorf("open library %s: %w", name, err)
	}
	// A batch of writes that a crash interrupted after it was decided is finished
	// before anything reads the vault (see vault.Apply).
	if _, err := v.Recover(ctx); err != nil {
		v.Close()
		return nil, fmt.Errorf("open library %s: %w", name, err)
	}
	l := &Library{name: name, vault: v, graph: graph.New(), bus: o.Bus, warnings: map[vpath.Path][]note.Warning{}, seed: maphash.MakeSeed(), keepTemps: o.KeepTemps, beforeRead: o.BeforeRead, once: o.Once}
	if !o.Watch {
		// Read by one command (memotree index, call, chat): its backlinks are built if
		// that command asks for them, not by every scan (graph.DeferReverse).
		l.graph.DeferReverse()
	}
	if o.Watch {
		// Watch before the scan so that no edit made during the scan is missed.
		w, err := watch.New(v.Dir(), watch.Options{Debounce: o.Debounce})
		if err != nil {
			v.Close()
			return nil, fmt.Errorf("watch library %s: %w", name, err)
		}
		l.watcher = w
		l.crashed = newCrashedBatches(l)
	}
	if o.Lazy && !o.Watch {
		return l, nil
	}
	if o.Background && l.watcher != nil {
		var scanCtx context.Context
		scanCtx, l.stopScan = context.WithCancel(context.WithoutCancel(ctx))
		l.done = make(chan struct{})
		l.load.expectWalk()    // a window asking for the files at once waits for the scan's walk
		claim := l.claimScan() // a request for the graph waits for this scan
		go func() {
			_ = l.runScan(scanCtx, claim) // a failure is in the progress event, and Graph scans again
			l.follow()
		}()
		return l, nil
	}
	if err := l.ensureScanned(ctx); err != nil {
		l.Close()
		return nil, fmt.Errorf("index library %s: %w", name, err)
	}
	if l.watcher != nil {
		l.done = make(chan struct{})
		go l.follow()
	}
	return l, nil
}

// Name returns the library's mount name.
func (l *Library) Name() string { return l.name }

// Vault returns a read-only view of the library's vault: every write goes through the
// library.
func (l *Library) Vault() vault.View { return l.vault.View() }

// State returns the view of the library's vault that writes the vault's own files
// (under .memotree, and its caches) for a search index, a canvas or an approval: never
// a note.
func (l *Library) State() vault.State { return l.vault.State() }

// Close stops watching and releases the vault.
func (l *Library) Close() error {
	l.closeMu.Lock()
	fns := l.onClose
	l.onClose, l.isClosed = nil, true
	l.closeMu.Unlock()
	for _, fn := range fns {
		fn()
	}
	if l.stopScan != nil {
		l.stopScan()
	}
	if l.watcher != nil {
		l.watcher.Close()
		if l.done != nil {
			<-l.done
		}
	}
	l.crashed.close()
	return l.vault.Close()
}

// Warnings returns every parse warning, sorted by path and line.
func (l *Library) Warnings() []FileWarning {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []FileWarning
	for p, ws := range l.warnings {
		for _, w := range ws {
			out = append(out, FileWarning{Path: p, Line: w.Line, Message: w.Message})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// parsed is the outcome of reading one file.
type parsed struct {
	path  vpath.Path
	note  *note.Note // nil for attachments and unreadable notes
	sum   uint64     // fingerprint of a note's content, to skip unchanged notes
	hash  vault.Hash // content hash of a note read for a change (not during a scan)
	warns []note.Warning
	gone  bool // the file no longer exists
	cut   bool // the index keeps only part of the note (see bound)
}

// scan reads every file of the vault and replaces the graph's content. It returns the
// scan's progress, which the caller finishes once the graph is ready for others (nil,
// with the error, when the scan failed: its progress says so already).
func (l *Library) scan(ctx context.Context) (*event.Progress, error) {
	// The scan is a task from its start: a window or a client asking for the tasks
	// while the folder is walked (a second or more at 100k notes) sees it running,
	// its number of notes not yet known.
	prog := event.StartProgress(l.bus, l.name, event.TaskScan, 0)
	rec := l.load.expectWalk()
	paths, err := l.vault.WalkNames(ctx)
	if err != nil {
		close(rec.done)
		prog.Finish(err)
		return nil, err
	}
	rec.paths = paths
	close(rec.done)
	// Temporary files the walk found are orphans of crashed writes: remove them.
	if !l.keepTemps {
		_, _ = l.vault.RemoveOrphanTemps(ctx)
	}
	notes := 0
	for _, p := range paths {
		if p.IsNote() {
			notes++
		}
	}
	if l.beforeRead != nil {
		l.beforeRead(notes)
	}
	if notes >= hugeHeapMinNotes {
		// The notes parsed and resolved stay on the heap, touched once as it grows.
		osmem.PrepareHugeHeap(notes * heapPerNote)
	}
	prog.SetTotal(notes)
	results, err := l.readAll(ctx, paths, true, prog)
	if err != nil {
		prog.Finish(err)
		return nil, err
	}
	// What the library keeps of each file is gathered while the graph loads: it
	// only reads the results, as the graph does, and would hold one core otherwise.
	var (
		kept     sync.WaitGroup
		warnings map[vpath.Path][]note.Warning
		sums     map[vpath.Path]uint64
		cut      map[vpath.Path]bool
	)
	kept.Go(func() { warnings, sums, cut = l.keep(results) })
	// The results are in the walk's order, sorted by path: the graph needs no map
	// of them, no list and no sort.
	l.graph.LoadSorted(len(results), func(i int) graph.Entry {
		if r := results[i]; !r.gone {
			return graph.Entry{Path: r.path, Note: r.note}
		}
		return graph.Entry{}
	})
	kept.Wait()
	l.mu.Lock()
	l.warnings, l.sums, l.cut = warnings, sums, cut
	l.mu.Unlock()
	return prog, nil
}

// keep returns the warnings, the content fingerprints (none for a library opened
// once) and the notes cut short of a scan's results.
func (l *Library) keep(results []*parsed) (warnings map[vpath.Path][]note.Warning, sums map[vpath.Path]uint64, cut map[vpath.Path]bool) {
	warnings, sums, cut = map[vpath.Path][]note.Warning{}, map[vpath.Path]uint64{}, map[vpath.Path]bool{}
	if !l.once {
		sums = make(map[vpath.Path]uint64, len(results))
	}
	for _, r := range results {
		if r.gone {
			continue
		}
		if r.cut {
			cut[r.path] = true
		}
		if len(r.warns) > 0 {
			warnings[r.path] = r.warns
		}
		if r.note != nil && !l.once {
			sums[r.path] = r.sum
		}
	}
	return warnings, sums, cut
}

// readAll reads and parses the notes among paths on every core. listed says the paths
// were just listed by a walk, so attachments need no check and no content hash is
// needed; otherwise (a change) attachments are checked and notes hashed. prog (may be
// nil) counts the notes read.
func (l *Library) readAll(ctx context.Context, paths []vpath.Path, listed bool, prog *event.Progress) ([]*parsed, error) {
	// A note's result is made by the goroutine that reads it: one slice of results
	// had Go zero 8 MB on one core at 100k notes, then the kernel fault it in (a
	// fresh page is costly); when every path is a note (a vault without
	// attachments), notes are paths, no copy.
	out := make([]*parsed, len(paths))
	notes, idx := notesOf(paths)
	for i, p := range paths {
		if p.IsNote() {
			continue
		}
		out[i] = &parsed{path: p}
		if !listed {
			if info, err := l.vault.Stat(p); err != nil || info.IsDir {
				out[i].gone = true
			}
		}
	}
	at := func(k int) int { return k }
	if idx != nil {
		at = func(k int) int { return idx[k] }
	}
	err := l.vault.ReadMany(ctx, notes, vault.ReadManyOptions{MaxSize: MaxNoteBytes}, func(k int, data []byte, err error) {
		defer prog.Add(1)
		r := &parsed{path: notes[k]}
		out[at(k)] = r
		switch {
		case errors.Is(err, vault.ErrTooLarge):
			msg := fmt.Sprintf("note is larger than the %d MB indexing limit: not indexed", MaxNoteBytes>>20)
			r.note, r.warns = &note.Note{}, []note.Warning{{Message: msg}}
		case errors.Is(err, vault.ErrNotFound) || errors.Is(err, fs.ErrNotExist), errors.Is(err, vault.ErrNotRegular):
			// Gone, or a named pipe or device that took a note's name (never read:
			// memotree doctor lists it): not a note of the graph.
			r.gone = true
		case err != nil:
			r.note, r.warns = &note.Note{}, []note.Warning{{Message: "cannot be read: " + err.Error()}}
		default:
			n := note.ParseLean(data) // it copies what it keeps: data may be reused
			r.cut = boundWarn(n)
			r.note, r.warns = n, n.Warnings
			if !listed || !l.once {
				r.sum = maphash.Bytes(l.seed, data)
			}
			if !listed {
				r.hash = vault.HashOf(data)
			}
		}
	})
	if err != nil { // cancelled: not every note was read
		for k, p := range notes {
			if out[at(k)] == nil {
				out[at(k)] = &parsed{path: p}
			}
		}
	}
	return out, err
}

// notesOf returns the notes among paths and the index in paths of each, or paths
// itself and nil when every path is a note.
func notesOf(paths []vpath.Path) (notes []vpath.Path, idx []int) {
	n := 0
	for _, p := range paths {
		if p.IsNote() {
			n++
		}
	}
	if n == len(paths) {
		return paths, nil
	}
	notes, idx = make([]vpath.Path, 0, n), make([]int, 0, n)
	for i, p := range paths {
		if p.IsNote() {
			notes, idx = append(notes, p), append(idx, i)
		}
	}
	return notes, idx
}

// follow applies the watcher's batches until the watcher closes.
func (l *Library) follow() {
	defer close(l.done)
	for b := range l.watcher.Batches() {
		ctx := context.Background()
		if b.Intent {
			l.crashed.kick()
		}
		if b.Rescan {
			prog, err := l.scan(ctx)
			prog.Finish(nil) // the graph holds the vault again (nil when the scan failed)
			// Subscribers hear of the rescan even when the scan failed: they look at
			// the files themselves (the search index walks the vault), and a search
			// index vouching for its file must know it can no longer say what changed.
			l.publish(nil, true)
			if err != nil {
				continue // the fences go unanswered: their processes look for themselves
			}
		} else if changed := l.apply(ctx, b.Paths); len(changed) > 0 {
			l.publish(changed, false)
		}
		if len(b.Fences) > 0 {
			l.subMu.Lock()
			for _, fn := range l.fences {
				fn(b.Fences)
			}
			l.subMu.Unlock()
		}
	}
}

// apply re-reads the given paths (files or folders) and updates the graph. It returns
// the file paths whose state changed; a note whose content hash is unchanged is skipped.
func (l *Library) apply(ctx context.Context, paths []vpath.Path) []vpath.Path {
	var files []vpath.Path
	for _, p := range paths {
		if p == "" || p.Ignored() {
			continue
		}
		info, err := l.vault.Stat(p)
		switch {
		case err != nil: // removed: a file, or a folder with everything under it
			files = append(files, l.under(p)...)
		case info.IsDir:
			files = append(files, l.under(p)...)
			files = append(files, l.walkFolder(ctx, p)...)
		default:
			files = append(files, p)
		}
	}
	slices.Sort(files)
	files = slices.Compact(files)
	results, _ := l.readAll(ctx, files, false, nil)
	l.mu.Lock()
	defer l.mu.Unlock()
	changed := files[:0]
	for _, r := range results {
		old, had := l.sums[r.path]
		switch {
		case r.gone:
			if !had && !l.graph.Has(r.path) {
				continue
			}
			l.graph.Remove(r.path)
			delete(l.sums, r.path)
			delete(l.cut, r.path)
		case r.note != nil:
			if had && old == r.sum {
				continue // already indexed (our own write, refreshed before its event)
			}
			l.graph.SetNote(r.path, r.note)
			l.sums[r.path] = r.sum
			l.noteCut(*r)
			l.journalExternal(ctx, *r)
		default:
			if l.graph.Has(r.path) {
				continue
			}
			l.graph.SetFile(r.path)
		}
		delete(l.warnings, r.path)
		if len(r.warns) > 0 {
			l.warnings[r.path] = r.warns
		}
		changed = append(changed, r.path)
	}
	return changed
}

// journalExternal records an edit that this process did not make, and that no other
// MemoTree process journaled as its own write (see vault.AppendExternal).
func (l *Library) journalExternal(ctx context.Context, r parsed) {
	if l.parent != nil || l.vault.OwnWrite(r.path, r.hash) {
		return
	}
	_ = l.vault.AppendExternal(ctx, r.path) // best effort: the journal must never block indexing
}

// under returns the graph's files at or below p.
func (l *Library) under(p vpath.Path) []vpath.Path {
	var out []vpath.Path
	prefix := string(p) + "/"
	for _, f := range l.graph.Files() {
		if f == p || strings.HasPrefix(string(f), prefix) {
			out = append(out, f)
		}
	}
	return out
}

// walkFolder lists the files below folder p (a folder moved or created in one step).
func (l *Library) walkFolder(ctx context.Context, p vpath.Path) []vpath.Path {
	files, err := l.vault.WalkUnder(ctx, p)
	if err != nil {
		return nil
	}
	out := make([]vpath.Path, 0, len(files))
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func (l *Library) publish(paths []vpath.Path, rescan bool) {
	l.subMu.Lock()
	for _, fn := range l.subs {
		fn(slices.Clone(paths), rescan)
	}
	l.subMu.Unlock()
	if l.bus == nil {
		return
	}
	ps := make([]string, len(paths))
	for i, p := range paths {
		ps[i] = string(p)
	}
	l.bus.Publish(event.Event{Topic: event.VaultChanged, Data: event.VaultChange{Library: l.name, Paths: ps, Rescan: rescan}})
}
