package search

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/internal/filelock"
	"github.com/memotree/memotree/backend/internal/regular"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/backend/watch"
)

// A one-shot process (memotree call) must know which notes changed since the
// persisted index was written before it answers from it. Without help it walks the
// vault and compares every note's size and time with the index: at 100,000 notes a
// tenth of a second or more. A running MemoTree process (the window, serve, mcp) whose
// watcher follows the vault knows already, and vouches for the file:
//
//   - It holds a lock on .memotree/search/vouch.lock (internal/filelock: the kernel
//     drops it when the process dies, however it dies) once its watcher has shown it
//     reports fences.
//   - A process opening the index sees the lock held without taking it, and creates a
//     fence, .memotree/fence-<random> (watch: the watcher's kernel queue holds every
//     event in order, so when the voucher reads the fence it has read every change
//     made before it).
//   - The voucher applies the changes before the fence, then writes into the fence
//     its answer: the generation of the persisted file it vouches for (a random
//     number written in the file at every save) and the paths changed since that
//     file was written, or that it cannot say.
//   - The process reads the answer and, if the generation is the one of the file it
//     loaded, reads those paths again instead of walking the vault. Without an
//     answer within fenceWait, or with another generation, it walks.
//
// So a vouched process sees every change made before it started, in place or not,
// as the watcher saw it. Vouching needs inotify's ordered queue: it is done on Linux
// only, and not for a vault on a network or user-space file system (NFS, SMB, FUSE…),
// whose files another machine may change unseen; elsewhere every process walks.

// vouchLock is the voucher's lock file, inside .memotree.
const vouchLock = "search/vouch.lock"

// fenceWait bounds how long a process waits for the voucher's answer before it walks
// the vault itself; the answer usually comes within a few milliseconds.
const fenceWait = 500 * time.Millisecond

// maxVouchedPaths bounds the changed paths an answer lists; beyond it the asker walks.
const maxVouchedPaths = 10_000

// vouchSupported says whether this system's watcher keeps events in order.
var vouchSupported = runtime.GOOS == "linux"

// answerMsg is what a voucher writes into a fence.
type answerMsg struct {
	Gen   string   `json:"gen,omitempty"` // hex; empty: the voucher cannot say
	Paths []string `json:"paths,omitempty"`
}

// newGen returns a random generation for a file about to be saved (never 0).
func newGen() uint64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:])
		if g := binary.LittleEndian.Uint64(b[:]); g != 0 {
			return g
		}
	}
}

// settledSet is what a save is sure to include of the changes reported so far: the
// paths (with the number of their report) and the rescan that were applied.
type settledSet struct {
	paths map[vpath.Path]uint64
	all   uint64
}

// settledChanges lists the reported changes already applied: neither pending nor
// being applied. A snapshot taken after this call holds them.
func (ix *Index) settledChanges() settledSet {
	ix.pendMu.Lock()
	defer ix.pendMu.Unlock()
	s := settledSet{paths: make(map[vpath.Path]uint64, len(ix.since))}
	for p, n := range ix.since {
		if !ix.pending[p] && !ix.inflight[p] {
			s.paths[p] = n
		}
	}
	if !ix.rescan && !ix.inflightAll {
		s.all = ix.sinceAll
	}
	return s
}

// saved records that the file of generation gen holds the settled changes.
func (ix *Index) saved(gen uint64, s settledSet) {
	ix.pendMu.Lock()
	defer ix.pendMu.Unlock()
	for p, n := range s.paths {
		if ix.since[p] == n { // not reported again since
			delete(ix.since, p)
		}
	}
	if s.all != 0 && ix.sinceAll == s.all {
		ix.sinceAll = 0
	}
	ix.gen.Store(gen)
}

// vouchAnswer says what the persisted file lacks, or that the index cannot say (not
// reconciled with the files yet, a rescan pending or too many changes).
func (ix *Index) vouchAnswer() answerMsg {
	ix.pendMu.Lock()
	defer ix.pendMu.Unlock()
	gen := ix.gen.Load()
	if ix.unsettled.Load() || ix.sinceAll != 0 || len(ix.since) > maxVouchedPaths || gen == 0 {
		return answerMsg{}
	}
	a := answerMsg{Gen: fmt.Sprintf("%016x", gen), Paths: make([]string, 0, len(ix.since))}
	for p := range ix.since {
		a.Paths = append(a.Paths, string(p))
	}
	return a
}

// Voucher answers fences for an index while its process's watcher follows the vault.
// Create it with NewVoucher, give Answer the fences the watcher reports, and call
// Start.
//
// Concurrency: Answer, Start and Close may be called from different goroutines.
type Voucher struct {
	ix       *Index
	self     string        // the prefix of the fences Start creates
	seen     chan struct{} // closed when Answer sees it
	seenOnce sync.Once

	mu      sync.Mutex
	release func() // the lock, while held
	closed  bool
}

// NewVoucher returns a voucher for ix, not vouching yet.
func NewVoucher(ix *Index) *Voucher {
	return &Voucher{ix: ix, self: watch.FencePrefix + "self-" + rand.Text(), seen: make(chan struct{})}
}

// insideEvery is how often a voucher whose vault keeps its caches outside (it has no
// .memotree yet) looks whether it has one now.
var insideEvery = 5 * time.Second

// Start waits until the vault has a .memotree folder (one whose caches wait outside,
// vault.CachesInside, gets nothing written in it until someone writes), then until the
// watcher reports a fence of its own, which shows the watcher sees .memotree, then
// takes the lock, unless another process vouches already. It returns when it holds the
// lock, cannot, or ctx is done.
func (vc *Voucher) Start(ctx context.Context) error {
	if !vouchSupported {
		return nil
	}
	v := vc.ix.v
	if !watchedLocally(v.Dir()) {
		return nil // a vault on a network file system: other machines' edits go unseen
	}
	for !v.CachesInside() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(insideEvery):
		}
	}
	if err := vc.seeOwnFence(ctx); err != nil {
		return err
	}
	lock, err := v.InternalPath(vouchLock)
	if err != nil {
		return fmt.Errorf("vouch for the search index: %w", err)
	}
	release, ok, err := filelock.Hold(lock)
	if err != nil || !ok {
		return err // another process vouches
	}
	vc.mu.Lock()
	defer vc.mu.Unlock()
	if vc.closed {
		release()
		return nil
	}
	vc.release = release
	sweepFences(v, time.Now().Add(-staleFence))
	return nil
}

// staleFence is the age past which a fence is left over: an asker waits fenceWait for
// its answer and then removes its fence, unless it was killed in between.
const staleFence = time.Minute

// sweepFences removes the fences older than before that askers killed while waiting
// left in .memotree. Only the voucher sweeps, holding the lock, so a fence some
// asker still waits on (never older than fenceWait) is never taken from it.
func sweepFences(v vault.State, before time.Time) {
	own, err := v.InternalPath(watch.FencePrefix + "sweep")
	if err != nil {
		return // a sweep is housekeeping: the next voucher tries again
	}
	ents, err := os.ReadDir(filepath.Dir(own))
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !validFence(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(before) {
			v.RemoveInternal(e.Name())
		}
	}
}

// seeOwnFence creates fences of its own until the watcher reports one: a .memotree
// made a moment ago may not be watched yet when the first is created.
func (vc *Voucher) seeOwnFence(ctx context.Context) error {
	deadline := time.After(time.Minute) // a last guard: a fence is reported at once
	for try := 0; ; try++ {
		path, err := vc.ix.v.InternalPath(fmt.Sprintf("%s-%d", vc.self, try))
		if err != nil {
			return fmt.Errorf("vouch for the search index: %w", err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			return fmt.Errorf("vouch for the search index: %w", err)
		}
		select {
		case <-vc.seen:
			os.Remove(path)
			return nil
		case <-ctx.Done():
			os.Remove(path)
			return ctx.Err()
		case <-deadline:
			os.Remove(path)
			return errors.New("vouch for the search index: the watcher does not report fences")
		case <-time.After(time.Second):
			os.Remove(path)
		}
	}
}

// Vouching reports whether the voucher holds the lock.
func (vc *Voucher) Vouching() bool {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	return vc.release != nil
}

// Answer answers the fences the watcher reported, once the changes before them were
// given to the index (library.SubscribeFences).
func (vc *Voucher) Answer(names []string) {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	for _, name := range names {
		if strings.HasPrefix(name, vc.self+"-") {
			vc.seenOnce.Do(func() { close(vc.seen) })
			continue
		}
		if vc.release == nil || !validFence(name) {
			continue
		}
		b, err := json.Marshal(vc.ix.vouchAnswer())
		if err != nil {
			continue
		}
		_ = writeAnswer(vc.ix.v, name, append(b, '\n')) // an asker that gave up removed it
	}
}

// Close stops vouching.
func (vc *Voucher) Close() {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	vc.closed = true
	if vc.release != nil {
		vc.release()
		vc.release = nil
	}
}

// validFence reports whether name is a fence's name, without a folder.
func validFence(name string) bool {
	return strings.HasPrefix(name, watch.FencePrefix) && !strings.ContainsAny(name, `/\`) && name != ".." && len(name) < 200
}

// writeAnswer writes the answer into the fence the asker created (never creating one,
// never opening anything but a regular file, never waiting on one).
func writeAnswer(v vault.State, name string, data []byte) error {
	path, err := v.InternalPath(name)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|regular.NonBlock|noFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fs.ErrInvalid
	}
	_, err = f.Write(data)
	return err
}

// question is a fence waiting for its answer.
type question struct {
	path string // the fence
	lock string // the voucher's lock file
}

// ask creates a fence if a voucher holds the lock, or returns nil.
func ask(v vault.State) *question {
	if !vouchSupported {
		return nil
	}
	dir := filepath.Join(v.Dir(), ".memotree")
	if st, err := os.Lstat(dir); err != nil || !st.IsDir() {
		return nil // no index was ever saved here
	}
	lock, err := v.InternalPath(vouchLock)
	if err != nil {
		return nil
	}
	if held, err := filelock.Held(lock); err != nil || !held {
		return nil
	}
	path, err := v.InternalPath(watch.FencePrefix + rand.Text())
	if err != nil {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|noFollow, 0o644)
	if err != nil {
		return nil
	}
	f.Close()
	return &question{path: path, lock: lock}
}

// answer waits for the voucher's answer and returns the paths changed since the file
// of generation gen was written; ok is false when the voucher vouches for another
// file, cannot say, or did not answer within fenceWait. The fence is removed.
func (q *question) answer(ctx context.Context, gen uint64) (changed []vpath.Path, ok bool) {
	defer q.drop()
	deadline := time.Now().Add(fenceWait)
	pause := 100 * time.Microsecond
	checked := time.Now()
	for {
		if b, err := os.ReadFile(q.path); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			var a answerMsg
			if json.Unmarshal(b, &a) != nil || a.Gen != fmt.Sprintf("%016x", gen) {
				return nil, false
			}
			for _, s := range a.Paths {
				p, err := vpath.Parse(s)
				if err != nil || string(p) != s {
					return nil, false
				}
				changed = append(changed, p)
			}
			return changed, true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, false
		}
		if time.Since(checked) > 20*time.Millisecond { // the voucher may have gone
			if held, err := filelock.Held(q.lock); err != nil || !held {
				return nil, false
			}
			checked = time.Now()
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}

// drop removes the fence; a nil question does nothing.
func (q *question) drop() {
	if q != nil {
		_ = os.Remove(q.path)
	}
}
