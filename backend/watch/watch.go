// Package watch reports changes to a vault folder made by anyone (the app, Obsidian,
// an editor, git) as debounced batches of vault paths, from fsnotify.
//
// A Watcher watches the folder and every subfolder, except those vpath.Ignored names;
// folders created later are watched as they appear and their contents reported, so a
// burst like `mkdir -p a/b/c && touch a/b/c/x.md` is seen whole. Temporary files of
// the vault's atomic writes (".memotree-tmp-*") are never reported: the rename that
// ends such a write is reported as a change of its target. A change of attributes
// alone (chmod, touch) is not reported. Inside .memotree only the intent of a batch is
// watched, reported as Batch.Intent (a writer's process may have died in the middle of
// its batch), and fences (below). Symbolic links to folders are not followed.
//
// A file created directly in .memotree whose name starts with "fence-" is a fence:
// another process asks to know when this watcher has seen every change made before
// it. inotify queues a watcher's events in the order they happened, so once the fence
// is read, so is every earlier change: the pending batch is sent at once, naming the
// fence in Batch.Fences, and its consumer answers after applying it.
//
// A folder path in a batch means the folder itself changed (created, removed or
// renamed): when it was removed or renamed away, the files it held are gone too even if
// they are not listed one by one, so the consumer drops or rescans everything under it.
//
// Concurrency: one goroutine per Watcher reads fsnotify and sends batches on the
// Batches channel, which has no buffer and is meant for a single consumer. While the
// consumer is busy, events keep being read and merged into the next batch, so a slow
// consumer never blocks the kernel queue; if more than Options.MaxPaths paths pile up,
// they collapse into one Batch{Rescan: true}. Close may be called from any goroutine,
// more than once; it returns after the goroutine has stopped, and the Batches channel
// is closed then.
package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fsnotify/fsnotify"

	"github.com/memotree/memotree/backend/vpath"
)

// tempPrefix starts the names of the vault's temporary files (vault.TempPrefix; a
// test keeps the two equal).
const tempPrefix = ".memotree-tmp-"

// Batch is a set of changes, sent once the folder has been quiet for Options.Debounce.
type Batch struct {
	// Paths are the files and folders that were created, written, removed or renamed
	// (both the old and the new name), sorted and without duplicates.
	Paths []vpath.Path
	// Rescan means events were lost (the kernel queue overflowed, a folder could not
	// be watched, or too many paths piled up): the consumer must rescan the vault.
	// Paths may still list some changes.
	Rescan bool
	// Intent means the intent of a batch (.memotree/intent.json) appeared, changed or
	// went away: a batch is being applied, or ended, or its writer died in the middle.
	// The consumer finishes a crashed one (vault.RecoverStale).
	Intent bool
	// Fences are the names of the fence files (FencePrefix…, in .memotree) created
	// before the batch was sent: every change made before them is in this batch or
	// an earlier one. Such a batch is sent without waiting for quiet.
	Fences []string
}

// FencePrefix starts the name of a fence file inside .memotree.
const FencePrefix = "fence-"

// Options tunes a Watcher.
type Options struct {
	// Debounce is the quiet time that ends a batch; a batch is sent at the latest
	// 4×Debounce after its first event. Default 25ms.
	Debounce time.Duration
	// MaxPaths is the most paths a batch lists; beyond it the batch becomes a Rescan.
	// Default 10,000.
	MaxPaths int

	// ready, if set, is called on the loop goroutine each time a batch is built and
	// waits for the consumer: a test's view of a state it cannot see from outside.
	ready func()
}

// Watcher watches a vault folder. Create it with New and stop it with Close.
type Watcher struct {
	dir  string
	opt  Options
	fsw  *fsnotify.Watcher
	out  chan Batch
	done chan struct{}
	wg   sync.WaitGroup

	closeOnce sync.Once
	closeErr  error

	// Owned by the loop goroutine (or New, before it starts).
	dirs    map[vpath.Path]struct{} // watched folders
	pending map[vpath.Path]struct{}
	rescan  bool
	intent  bool      // a batch's intent changed (Batch.Intent)
	fences  []string  // fences seen since the last batch
	first   time.Time // of the pending batch
	last    time.Time
}

// New starts watching the folder dir and its subfolders.
func New(dir string, o Options) (*Watcher, error) {
	if o.Debounce <= 0 {
		o.Debounce = 25 * time.Millisecond
	}
	if o.MaxPaths <= 0 {
		o.MaxPaths = 10_000
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("watch %s: not a folder: %v", dir, err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w := &Watcher{
		dir: abs, opt: o, fsw: fsw,
		out:     make(chan Batch),
		done:    make(chan struct{}),
		dirs:    make(map[vpath.Path]struct{}),
		pending: make(map[vpath.Path]struct{}),
	}
	if err := fsw.Add(abs); err != nil {
		fsw.Close()
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	w.dirs[""] = struct{}{}
	w.addTree("", false)
	w.watchInternal()
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Batches returns the channel on which batches arrive. It is closed by Close.
func (w *Watcher) Batches() <-chan Batch { return w.out }

// Close stops watching and waits for the Watcher's goroutine to end.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		if err := w.fsw.Close(); err != nil {
			w.closeErr = fmt.Errorf("close watcher of %s: %w", w.dir, err)
		}
		w.wg.Wait()
	})
	return w.closeErr
}

// loop reads events, merges them and sends batches until Close.
func (w *Watcher) loop() {
	defer w.wg.Done()
	defer close(w.out)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var ready *Batch // built, waiting for the consumer
	for {
		if ready == nil && w.hasPending() {
			if d := time.Until(w.deadline()); d > 0 {
				timer.Reset(d)
			} else {
				b := w.take()
				ready = &b
				if w.opt.ready != nil {
					w.opt.ready()
				}
			}
		}
		var out chan Batch
		var b Batch
		if ready != nil {
			out, b = w.out, *ready
		}
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			_ = err // overflow or a failing watch: either way events were lost
			w.lost()
		case <-timer.C:
		case out <- b:
			ready = nil
		}
	}
}

func (w *Watcher) hasPending() bool {
	return w.rescan || w.intent || len(w.pending) > 0 || len(w.fences) > 0
}

// internalDir is the app's own folder in the vault, whose batch intent and fences
// are watched (but nothing else in it is reported).
const internalDir = ".memotree"

// intentName is the recorded intent of a batch of writes being applied
// (vault.Apply): a writer that dies in the middle of its batch leaves it, and whoever
// takes the vault's lock next finishes the batch.
const intentName = "intent.json"

// watchInternal watches .memotree itself, not its subfolders, if it exists.
func (w *Watcher) watchInternal() {
	_ = w.fsw.Add(w.abs(internalDir)) // absent until the app first writes there
}

// internal handles an event inside .memotree: only the intent and fences are of
// interest.
func (w *Watcher) internal(p vpath.Path, ev fsnotify.Event) {
	switch {
	case p == internalDir && ev.Has(fsnotify.Create):
		w.watchInternal()
		w.internalBefore()
	case p == vpath.Path(internalDir).Join(intentName):
		w.touch()
		w.intent = true
	case p.Dir() == internalDir && strings.HasPrefix(p.Base(), FencePrefix) && ev.Has(fsnotify.Create):
		w.touch()
		w.fences = append(w.fences, p.Base())
	}
}

// internalBefore reports what was made in .memotree between its creation and the
// watch on it (a writer makes the folder and its batch's intent, or a fence, at once):
// no event will come for those.
func (w *Watcher) internalBefore() {
	entries, err := readDir(w.abs(internalDir))
	if err != nil {
		return
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == intentName:
			w.touch()
			w.intent = true
		case strings.HasPrefix(name, FencePrefix) && !slices.Contains(w.fences, name):
			w.touch()
			w.fences = append(w.fences, name)
		}
	}
}

// deadline is when the pending batch is due: Debounce after the last event, at most
// 4×Debounce after the first.
func (w *Watcher) deadline() time.Time {
	if len(w.fences) > 0 {
		return time.Time{} // a process waits for the answer
	}
	quiet := w.last.Add(w.opt.Debounce)
	if limit := w.first.Add(4 * w.opt.Debounce); limit.Before(quiet) {
		return limit
	}
	return quiet
}

// take empties the pending set into a Batch.
func (w *Watcher) take() Batch {
	b := Batch{Rescan: w.rescan, Intent: w.intent, Fences: w.fences, Paths: make([]vpath.Path, 0, len(w.pending))}
	for p := range w.pending {
		b.Paths = append(b.Paths, p)
	}
	slices.Sort(b.Paths)
	clear(w.pending)
	w.rescan, w.intent, w.fences = false, false, nil
	return b
}

// touch records that something happened now.
func (w *Watcher) touch() {
	now := time.Now()
	if !w.hasPending() {
		w.first = now
	}
	w.last = now
}

// add records a changed path.
func (w *Watcher) add(p vpath.Path) {
	w.touch()
	if len(w.pending) >= w.opt.MaxPaths {
		w.rescan = true
		return
	}
	w.pending[p] = struct{}{}
}

// lost records that events were lost.
func (w *Watcher) lost() {
	w.touch()
	w.rescan = true
}

// handle records one fsnotify event.
func (w *Watcher) handle(ev fsnotify.Event) {
	p, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	if p == "" { // the vault folder itself was removed or moved
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.lost()
		}
		return
	}
	if p == internalDir || p.Dir() == internalDir {
		w.internal(p, ev)
		return
	}
	if p.Ignored() || strings.HasPrefix(p.Base(), tempPrefix) || ev.Op == fsnotify.Chmod {
		return
	}
	w.add(p)
	switch {
	case ev.Has(fsnotify.Create):
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			w.addTree(p, true)
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		w.dropTree(p)
	}
}

// rel converts an absolute name from fsnotify to a vault path; ok is false for names
// outside the folder or that are not valid vault paths.
func (w *Watcher) rel(name string) (vpath.Path, bool) {
	r, err := filepath.Rel(w.dir, name)
	if err != nil {
		return "", false
	}
	if r == "." {
		return "", true
	}
	r = filepath.ToSlash(r)
	if !utf8.ValidString(r) || strings.Contains(r, `\`) {
		return "", false
	}
	p, err := vpath.Parse(r)
	if err != nil || string(p) != r {
		return "", false
	}
	return p, true
}

func (w *Watcher) abs(p vpath.Path) string {
	return filepath.Join(w.dir, filepath.FromSlash(string(p)))
}

// addTree watches the folder p and its subfolders; with report it records everything
// found in them, which may have been created before the watch was in place.
func (w *Watcher) addTree(p vpath.Path, report bool) {
	if _, ok := w.dirs[p]; !ok {
		if err := w.fsw.Add(w.abs(p)); err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				w.lost() // permission, or out of inotify watches
			}
			return
		}
		w.dirs[p] = struct{}{}
	}
	ents, err := readDir(w.abs(p))
	if err != nil {
		return // removed meanwhile: its Remove event follows
	}
	for _, e := range ents {
		if !report && !e.IsDir() {
			// Only folders are watched: a vault of 100k notes lists 100k files here,
			// and the window's server waits for this walk before it answers.
			continue
		}
		name := e.Name()
		if !utf8.ValidString(name) || strings.Contains(name, `\`) {
			continue
		}
		c := p.Join(name)
		if c.Ignored() || strings.HasPrefix(name, tempPrefix) {
			continue
		}
		if report {
			w.add(c)
		}
		if e.IsDir() {
			w.addTree(c, report)
		}
	}
}

// readDir lists a folder's entries in the order the system gives them (os.ReadDir
// sorts them, which nothing here needs).
func readDir(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// dropTree forgets the watches on the folder p and its subfolders (it was removed or
// renamed away; a renamed folder's new name is watched again from its Create event).
// Removing the old watch before that Create is handled matters: inotify would hand the
// same watch back for the same folder, and fsnotify drops it when the pending
// IN_MOVE_SELF of the old name arrives.
func (w *Watcher) dropTree(p vpath.Path) {
	if _, ok := w.dirs[p]; !ok {
		return
	}
	prefix := string(p) + "/"
	for d := range w.dirs {
		if d == p || strings.HasPrefix(string(d), prefix) {
			delete(w.dirs, d)
			_ = w.fsw.Remove(w.abs(d)) // often already gone with the folder
		}
	}
}
