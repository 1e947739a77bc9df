package vault

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/internal/fsfault"
	"github.com/memotree/memotree/backend/vpath"
)

// ErrDamagedJournal means the vault holds the undo journal of a crashed change set
// that no rollback can use: it cannot be read, a record before its torn end is
// damaged, or it names a path that is not content of the vault. The vault opens and
// reads as the crash left it, but its content writes are refused until `memotree
// doctor --repair` sets the journal aside (SetAsideJournal): a write could otherwise
// build on the crashed half, or be undone by a later rollback of it.
var ErrDamagedJournal = errors.New("the vault holds an undo journal of a crashed change set that cannot be rolled back")

// recoveredDir is where SetAsideJournal keeps what a damaged journal holds, inside
// .memotree.
const recoveredDir = "recovered"

// DamagedJournal is the undo journal of a crashed change set that cannot be rolled
// back (see ErrDamagedJournal).
type DamagedJournal struct {
	// Name is its vault path (.memotree/undo-….log).
	Name string `json:"name"`
	// ChangeSet names the change set.
	ChangeSet string `json:"change_set"`
	// Reason says why it cannot be rolled back.
	Reason string `json:"reason"`
	// Paths are the paths its readable records name (they may be incomplete).
	Paths []vpath.Path `json:"paths"`
}

// damagedError is why a crashed change set's journal cannot be rolled back.
type damagedError struct{ reason string }

func (e *damagedError) Error() string { return e.reason }

func damaged(format string, args ...any) error {
	return &damagedError{reason: fmt.Sprintf(format, args...)}
}

// damage is what a Vault knows of the damaged journals its last recovery found.
type damage struct {
	mu sync.Mutex
	// found are the damaged journals by name; seen keeps the file each verdict is for,
	// so an unchanged journal is not read again at every lock.
	found map[string]DamagedJournal
	seen  map[string]os.FileInfo
	hooks []func(DamagedJournal)
}

// OnDamaged registers fn to be called, on a goroutine of its own, each time a
// recovery of this Vault finds a damaged journal it did not know (the library tells
// the window). DamagedJournals lists those found before.
func (v *Vault) OnDamaged(fn func(DamagedJournal)) {
	v.dmg.mu.Lock()
	v.dmg.hooks = append(v.dmg.hooks, fn)
	v.dmg.mu.Unlock()
}

// DamagedJournals returns the undo journals that the last recovery (at Open, at a
// write's lock, or by a watcher) found that no rollback can use, sorted by name.
func (v *Vault) DamagedJournals() []DamagedJournal {
	v.dmg.mu.Lock()
	defer v.dmg.mu.Unlock()
	out := make([]DamagedJournal, 0, len(v.dmg.found))
	for _, d := range v.dmg.found {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b DamagedJournal) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// setDamaged keeps d, found in the file st, warns of it, and tells the hooks when it
// is new. Only a verdict on what the journal holds (sticky) is kept for st, so that
// an unchanged journal is not read again at every lock; one that could not be opened
// or read is tried again at the next lock (the disk may have been failing for a
// moment).
func (v *Vault) setDamaged(ctx context.Context, d DamagedJournal, st os.FileInfo, sticky bool) {
	v.dmg.mu.Lock()
	if v.dmg.found == nil {
		v.dmg.found, v.dmg.seen = map[string]DamagedJournal{}, map[string]os.FileInfo{}
	}
	_, had := v.dmg.found[d.Name]
	v.dmg.found[d.Name] = d
	delete(v.dmg.seen, d.Name)
	if sticky && st != nil {
		v.dmg.seen[d.Name] = st
	}
	var hooks []func(DamagedJournal)
	if !had {
		hooks = slices.Clone(v.dmg.hooks)
	}
	v.dmg.mu.Unlock()
	v.warn(ctx, d.Message())
	for _, h := range hooks {
		go h(d)
	}
}

// knownDamaged returns the verdict kept for the journal name when the file st is the
// one it was made for, unchanged.
func (v *Vault) knownDamaged(name string, st os.FileInfo) (DamagedJournal, bool) {
	v.dmg.mu.Lock()
	defer v.dmg.mu.Unlock()
	d, ok := v.dmg.found[name]
	old := v.dmg.seen[name]
	if !ok || old == nil || !os.SameFile(old, st) || old.Size() != st.Size() || !old.ModTime().Equal(st.ModTime()) {
		return DamagedJournal{}, false
	}
	return d, true
}

// forgetDamaged forgets the damaged journal name (set aside).
func (v *Vault) forgetDamaged(name string) {
	v.dmg.mu.Lock()
	delete(v.dmg.found, name)
	delete(v.dmg.seen, name)
	v.dmg.mu.Unlock()
}

// keepDamaged forgets the damaged journals not among names (gone, or rolled back).
func (v *Vault) keepDamaged(names []string) {
	v.dmg.mu.Lock()
	defer v.dmg.mu.Unlock()
	for n := range v.dmg.found {
		if !slices.Contains(names, n) {
			delete(v.dmg.found, n)
			delete(v.dmg.seen, n)
		}
	}
}

// Message says, for the person, what the journal is, why no rollback can use it, and
// what to do.
func (d DamagedJournal) Message() string {
	return fmt.Sprintf("the undo journal %s of a change set (%s) that a crash interrupted cannot be rolled back: %s. Its files (%s) stay as the crash left them, and writes to this vault are refused until `memotree doctor --repair` sets the journal aside (keeping what it holds in %s/%s/)",
		d.Name, d.ChangeSet, d.Reason, listPaths(d.Paths, 5), internalDir, recoveredDir)
}

// lockWrite takes the lock as Lock does, for a write of content: it refuses while a
// damaged journal is there (ErrDamagedJournal).
func (v *Vault) lockWrite(ctx context.Context) (unlock func(), err error) {
	unlock, err = v.Lock(ctx)
	if err != nil {
		return nil, err
	}
	if ds := v.DamagedJournals(); len(ds) > 0 {
		unlock()
		d := ds[0]
		return nil, fmt.Errorf("%w: %s (%s: %s); nothing was written. Run `memotree doctor --repair` to set it aside (what it holds is kept in %s/%s/), then write again",
			ErrDamagedJournal, d.Name, d.ChangeSet, d.Reason, internalDir, recoveredDir)
	}
	return unlock, nil
}

// checkJournal returns a damagedError if j names a path that is not content.
func checkJournal(j journal) error {
	for _, p := range j.pre {
		if err := checkContent(p.Path); err != nil {
			return damaged("it names %q, which is not content of the vault", string(p.Path))
		}
	}
	return nil
}

// namedPaths reads the paths that the readable records of a journal name.
func namedPaths(r io.Reader) []vpath.Path {
	var out []vpath.Path
	s := bufio.NewScanner(r)
	s.Buffer(nil, 1<<30)
	for s.Scan() {
		var rec undoRecord
		if json.Unmarshal(s.Bytes(), &rec) == nil && rec.Path != "" && !slices.Contains(out, rec.Path) {
			out = append(out, rec.Path)
		}
	}
	return out
}

// SetAsideJournal removes the damaged undo journal name (a DamagedJournal's Name)
// from where recoveries look, losing nothing: every pre-image its readable records
// hold is written, as a file at its path, under files/ in the folder
// .memotree/recovered/<change set>-<time>, and the journal itself, byte for byte,
// moves to journal.log there. It returns that folder's vault path. A live change
// set's journal is refused. The files the change set wrote stay as they are: the
// person compares them with the kept pre-images. It takes the vault lock.
func (v *Vault) SetAsideJournal(ctx context.Context, name string) (string, error) {
	base, ok := strings.CutPrefix(name, internalDir+"/")
	id, ok2 := strings.CutPrefix(strings.TrimSuffix(base, undoSuffix), undoPrefix)
	if !ok || !ok2 || !strings.HasSuffix(base, undoSuffix) || !validUndoID(id) {
		return "", fmt.Errorf("set aside %s: %w: not an undo journal", name, ErrOutside)
	}
	unlock, err := v.lockOnly(ctx)
	if err != nil {
		return "", fmt.Errorf("set aside %s: %w", name, err)
	}
	defer unlock()
	if v.heldHere(name) {
		return "", fmt.Errorf("set aside %s: the change set is running in this process", name)
	}
	var pre []Preimage
	if f, err := v.root.OpenFile(name, os.O_RDWR, 0); err == nil {
		free, perr := v.probe(f)
		if perr == nil && !free {
			f.Close()
			return "", fmt.Errorf("set aside %s: the change set is running (its journal is held)", name)
		}
		pre = readablePreimages(f)
		f.Close() // before the rename, which Windows refuses for a file open elsewhere
	} else if _, serr := v.root.Lstat(name); serr != nil {
		return "", fmt.Errorf("set aside %s: %w", name, mapErr(serr))
	}
	dest := fmt.Sprintf("%s/%s-%s", recoveredDir, id, time.Now().UTC().Format("20060102T150405.000000000Z"))
	for _, p := range pre {
		if !p.Existed || checkContent(p.Path) != nil {
			continue // the raw journal keeps it
		}
		if err := v.WriteInternal(dest+"/files/"+string(p.Path), p.Data); err != nil {
			return "", fmt.Errorf("set aside %s: keep the pre-image of %s: %w", name, p.Path, err)
		}
	}
	if err := v.root.MkdirAll(osName(vpath.Path(internalDir).Join(dest)), 0o755); err != nil {
		return "", fmt.Errorf("set aside %s: %w", name, mapErr(err))
	}
	to := internalDir + "/" + dest + "/journal" + undoSuffix
	if err := fsfault.Check("rename", to); err != nil {
		return "", fmt.Errorf("set aside %s: %w", name, err)
	}
	if err := v.root.Rename(name, to); err != nil {
		return "", fmt.Errorf("set aside %s: %w", name, mapErr(err))
	}
	for _, d := range []vpath.Path{internalDir, vpath.Path(internalDir).Join(dest)} {
		if err := v.syncDir(d); err != nil {
			return "", fmt.Errorf("set aside %s: %w", name, err)
		}
	}
	v.forgetDamaged(name)
	return internalDir + "/" + dest, nil
}

// readablePreimages returns the first record of each path among the lines of r that
// parse, skipping the damaged ones.
func readablePreimages(r io.Reader) []Preimage {
	var out []Preimage
	seen := map[vpath.Path]bool{}
	s := bufio.NewScanner(r)
	s.Buffer(nil, 1<<30)
	for s.Scan() {
		var rec undoRecord
		if json.Unmarshal(s.Bytes(), &rec) != nil || rec.Path == "" || seen[rec.Path] {
			continue
		}
		seen[rec.Path] = true
		out = append(out, Preimage{Path: rec.Path, Existed: rec.Existed, Data: rec.Data})
	}
	return out
}
