package library

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// A transaction (a Starlark script's) sees and changes libraries through forks: a
// fork is a library whose vault is a vault.Stage over its parent's, so that its
// writes stay in memory, and whose graph is a clone of its parent's, so that they are
// indexed there and nowhere else. Every tool works on a fork as on any library:
// reads see the transaction's own writes, names resolve to the notes it created,
// searches find what it wrote. Nobody else sees any of it until Tx.Commit applies
// every fork's writes to its parent at once, each a compare-and-swap on what the
// transaction found: if another writer (another process, the window, Obsidian)
// changed one of those files meanwhile, nothing is applied and the commit says which
// file (ErrConflict). A transaction that fails, is a dry run, or whose process dies
// has written nothing to undo.

// ErrConflict means a transaction's commit found a file it changed changed by someone
// else since it read it: nothing of the transaction was applied.
var ErrConflict = errors.New("changed by someone else while the transaction ran")

// Fork returns a transaction's view of l: see above. l's graph is loaded first (a
// lazily opened library scans now). The fork is not watched, publishes nothing and
// needs no Close.
func (l *Library) Fork(ctx context.Context) (*Library, error) {
	if l.parent != nil {
		return nil, fmt.Errorf("fork library %s: it is a transaction's already", l.name)
	}
	g, err := l.Graph(ctx)
	if err != nil {
		return nil, fmt.Errorf("fork library %s: %w", l.name, err)
	}
	st := vault.NewStage(l.vault)
	l.mu.Lock()
	warnings, cut := maps.Clone(l.warnings), maps.Clone(l.cut)
	l.mu.Unlock()
	f := &Library{name: l.name, vault: st.Vault(), graph: g.Clone(), warnings: warnings, cut: cut,
		sums: map[vpath.Path]uint64{}, seed: l.seed, keepTemps: true, parent: l, stage: st}
	f.load.ok.Store(true)
	return f, nil
}

// Parent returns the library a fork was made from, or l itself when l is no fork.
func (l *Library) Parent() *Library {
	if l.parent != nil {
		return l.parent
	}
	return l
}

// Staged lists the files a fork changed so far (nil for a library that is no fork).
func (l *Library) Staged() []vault.StagedFile {
	if l.stage == nil {
		return nil
	}
	return l.stage.Changed()
}

// Tx is a transaction over the libraries of a workspace: each library a call in the
// transaction writes to is forked on that first write (a library only read is read
// as it is, until then), and Commit applies every fork. A Tx is safe for concurrent
// use.
type Tx struct {
	mu    sync.Mutex
	forks map[*Library]*Library
	order []*Library // the parents, in the order forked
	done  bool
}

// NewTx returns an empty transaction.
func NewTx() *Tx { return &Tx{forks: map[*Library]*Library{}} }

type txKey struct{}

// txCall is a transaction as one call sees it: whether that call may write.
type txCall struct {
	tx    *Tx
	write bool
}

// WithTx returns a context whose calls act inside tx: InTx gives them tx's fork of a
// library, made now if write is set (the call may write), or the library itself when
// the call only reads and nothing forked it yet.
func WithTx(ctx context.Context, tx *Tx, write bool) context.Context {
	return context.WithValue(ctx, txKey{}, txCall{tx, write})
}

// InTx returns the library a call in ctx acts on for l: l itself outside a
// transaction, else the transaction's fork of l (see WithTx).
func InTx(ctx context.Context, l *Library) (*Library, error) {
	c, ok := ctx.Value(txKey{}).(txCall)
	if !ok || l == nil || l.parent != nil {
		return l, nil
	}
	return c.tx.fork(ctx, l, c.write)
}

func (t *Tx) fork(ctx context.Context, l *Library, write bool) (*Library, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.forks[l]; f != nil {
		return f, nil
	}
	if !write {
		return l, nil
	}
	if t.done {
		return nil, errors.New("the transaction has ended")
	}
	f, err := l.Fork(ctx)
	if err != nil {
		return nil, err
	}
	t.forks[l] = f
	t.order = append(t.order, l)
	return f, nil
}

// Forks returns the forks made so far, in the order made.
func (t *Tx) Forks() []*Library {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*Library, len(t.order))
	for i, l := range t.order {
		out[i] = t.forks[l]
	}
	return out
}

// Discard ends the transaction without applying anything: its forks are forgotten.
func (t *Tx) Discard() {
	t.mu.Lock()
	t.done = true
	t.mu.Unlock()
}

// Commit ends the transaction applying every fork's writes to its library, with the
// journey entries the transaction's writes recorded, as one batch per vault, the
// vaults locked together (vault.ApplyAll); the libraries index what landed. If a file
// the transaction changed was changed by someone else since the transaction read it,
// nothing is applied and the error wraps ErrConflict and names the file. It returns
// the paths applied, per library.
func (t *Tx) Commit(ctx context.Context) (map[*Library][]vpath.Path, error) {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return nil, errors.New("the transaction has ended")
	}
	t.done = true
	parents := slices.Clone(t.order)
	forks := make([]*Library, len(parents))
	for i, l := range parents {
		forks[i] = t.forks[l]
	}
	t.mu.Unlock()
	batches := make([]vault.Batch, 0, len(forks))
	libs := make([]*Library, 0, len(forks))
	for i, f := range forks {
		changes, entries := f.stage.Batch()
		if len(changes) == 0 && len(entries) == 0 {
			continue
		}
		batches = append(batches, vault.Batch{Vault: parents[i].vault, Changes: changes, Options: vault.WriteOptions{Journey: entries}})
		libs = append(libs, parents[i])
	}
	if len(batches) == 0 {
		return nil, nil
	}
	_, err := vault.ApplyAll(ctx, batches)
	out := map[*Library][]vpath.Path{}
	for i, l := range libs {
		l.indexBatch(ctx, batches[i].Changes, err)
		for _, c := range batches[i].Changes {
			out[l] = append(out[l], c.Path)
		}
	}
	if err != nil {
		if refused(err) {
			return nil, fmt.Errorf("%w: %w", ErrConflict, err)
		}
		return nil, err
	}
	return out, nil
}

// refused reports whether a commit's error means the vault changed under the
// transaction (a file's content or kind, its permissions, a link put in its way), so
// that its checks refused it before anything was written.
func refused(err error) bool {
	for _, e := range []error{vault.ErrConflict, vault.ErrExists, vault.ErrNotFound, vault.ErrReadOnly, vault.ErrNotRegular, vault.ErrOutside} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
