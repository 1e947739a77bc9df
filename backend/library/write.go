package library

import (
	"context"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Write writes data to the file at p through the vault (vault.Vault.Write with o) and,
// once the write has landed, indexes what it wrote, so that the next read of the graph
// sees it without waiting for the watcher (a lazily opened library has none). The
// indexing runs to its end whatever becomes of ctx: a caller that gives up cannot
// leave a landed write unindexed.
func (l *Library) Write(ctx context.Context, p vpath.Path, data []byte, o vault.WriteOptions) (vault.Hash, error) {
	h, err := l.vault.Write(ctx, p, data, o)
	if err != nil {
		return h, err
	}
	l.index(context.WithoutCancel(ctx), map[vpath.Path][]byte{p: data}, nil)
	return h, nil
}

// Apply makes a batch of changes through the vault, all or nothing (vault.Vault.Apply
// with o), and indexes every path the batch touched, whether it landed or not: the
// content written as given, the removed paths and, after a failure, every path from
// disk. The indexing runs to its end whatever becomes of ctx. Library implements
// gitrepo.Writer with it, so that a discard, a restore or a pull is indexed too.
func (l *Library) Apply(ctx context.Context, changes []vault.Change, o vault.WriteOptions) ([]vault.Hash, error) {
	hashes, err := l.vault.Apply(ctx, changes, o)
	l.indexBatch(ctx, changes, err)
	return hashes, err
}

// indexBatch indexes what a batch of changes left, err being how it ended: the
// content written as given, the removed paths and, after a failure, every path from
// disk. It runs to its end whatever becomes of ctx.
func (l *Library) indexBatch(ctx context.Context, changes []vault.Change, err error) {
	var written map[vpath.Path][]byte
	var reread []vpath.Path
	for _, c := range changes {
		if err == nil && !c.Delete {
			if written == nil {
				written = make(map[vpath.Path][]byte, len(changes))
			}
			written[c.Path] = c.Data
			continue
		}
		reread = append(reread, c.Path)
	}
	l.index(context.WithoutCancel(ctx), written, reread)
}

// Lock takes the vault's cross-process write lock (vault.Vault.Lock).
func (l *Library) Lock(ctx context.Context) (unlock func(), err error) { return l.vault.Lock(ctx) }

// AppendJourneyEntries appends journey entries given as text
// (vault.Vault.AppendJourneyEntries); journey.yaml is not indexed.
func (l *Library) AppendJourneyEntries(ctx context.Context, text []byte) error {
	return l.vault.AppendJourneyEntries(ctx, text)
}

// JourneyLatest returns the newest successful journey entry naming each of names
// (vault.Vault.JourneyLatest). With it the library is also a gitrepo.Journal, so that
// git's status pairs the moves the journey recorded as the vault's own writer did.
func (l *Library) JourneyLatest(maxBytes int64, names []string) ([]vault.Entry, error) {
	return l.vault.JourneyLatest(maxBytes, names)
}

// index updates the graph with files this process has just written, from the content
// written (notes only: another file, or a note too large to index, is read back), and
// with the paths to read from disk, then publishes the change once. Before the graph is
// loaded it does nothing: a scan that is running applies the paths when it is done,
// and a scan to come reads them from disk.
func (l *Library) index(ctx context.Context, written map[vpath.Path][]byte, reread []vpath.Path) {
	all := slices.Clone(reread)
	for p := range written {
		all = append(all, p)
	}
	if len(all) == 0 || !l.loadedOrDefer(all) {
		return
	}
	changed, other := l.indexContent(written)
	if paths := slices.Concat(reread, other); len(paths) > 0 {
		changed = append(changed, l.apply(ctx, paths)...)
	}
	if len(changed) > 0 {
		l.publish(changed, false)
	}
}

// indexContent indexes notes from the content written, without reading them back; it
// returns the paths it changed and the paths it left to be read from disk. An edit
// made from outside meanwhile arrives through the watcher, which reads it.
func (l *Library) indexContent(written map[vpath.Path][]byte) (changed, other []vpath.Path) {
	results := make([]parsed, 0, len(written))
	for p, data := range written {
		if !p.IsNote() || p.Ignored() || len(data) > MaxNoteBytes {
			other = append(other, p)
			continue
		}
		n := note.ParseLean(data)
		cut := boundWarn(n)
		results = append(results, parsed{path: p, note: n, warns: n.Warnings, sum: maphash.Bytes(l.seed, data), cut: cut})
	}
	slices.SortFunc(results, func(a, b parsed) int { return strings.Compare(string(a.path), string(b.path)) })
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range results {
		if old, had := l.sums[r.path]; had && old == r.sum {
			continue // already indexed
		}
		l.graph.SetNote(r.path, r.note)
		l.sums[r.path] = r.sum
		l.noteCut(r)
		delete(l.warnings, r.path)
		if len(r.warns) > 0 {
			l.warnings[r.path] = r.warns
		}
		changed = append(changed, r.path)
	}
	return changed, other
}

// Update reads the files at paths under the vault lock and applies the changes fn
// computes from them as one batch (vault.Vault.Update), then indexes what landed, as
// Apply does: the content of the batch fn returned last (the one applied), or after a
// failure every path from disk. The indexing runs to its end whatever becomes of ctx.
func (l *Library) Update(ctx context.Context, paths []vpath.Path, fn vault.UpdateFunc, o vault.WriteOptions) ([]vault.Hash, error) {
	var last []vault.Change
	hashes, err := l.vault.Update(ctx, paths, func(cur map[vpath.Path]vault.Current) ([]vault.Change, error) {
		changes, err := fn(cur)
		last = changes
		return changes, err
	}, o)
	ictx := context.WithoutCancel(ctx)
	if err != nil {
		l.index(ictx, nil, paths)
		return hashes, err
	}
	written := make(map[vpath.Path][]byte, len(last))
	var reread []vpath.Path
	for _, c := range last {
		if c.Delete {
			reread = append(reread, c.Path)
		} else {
			written[c.Path] = c.Data
		}
	}
	l.index(ictx, written, reread)
	return hashes, nil
}

// UpdateFile rewrites the file at p from its current content under the vault lock
// (vault.Vault.UpdateFile), then indexes the content written, as Write does. The
// indexing runs to its end whatever becomes of ctx.
func (l *Library) UpdateFile(ctx context.Context, p vpath.Path, fn func(cur []byte, exists bool) ([]byte, error), o vault.WriteOptions) (vault.Hash, error) {
	var last []byte
	h, err := l.vault.UpdateFile(ctx, p, func(cur []byte, exists bool) ([]byte, error) {
		data, err := fn(cur, exists)
		last = data
		return data, err
	}, o)
	ictx := context.WithoutCancel(ctx)
	if err != nil {
		l.index(ictx, nil, []vpath.Path{p})
		return h, err
	}
	l.index(ictx, map[vpath.Path][]byte{p: last}, nil)
	return h, nil
}
