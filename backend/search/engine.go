package search

import (
	"context"

	"github.com/memotree/memotree/backend/event"
	"github.com/memotree/memotree/backend/library"
)

// An Engine runs the searches of the mounted libraries for one tool registry (the
// catalogue's search tools): the ranked searches on one Index per library, opened on
// first use and kept current through the library's change notifications
// (indexes.go), and the glob and regular expression searches over the notes' text
// (pattern_search.go), narrowed by that index's trigrams and read through one text
// cache per library (pattern_cache.go). A script's transaction searches its fork of
// a library, whose writes are laid over the parent's index (LibraryIndex).
//
// Concurrency: an Engine is safe for concurrent use.
type Engine struct {
	indexes libraryIndexes
	caches  textCaches
}

// EngineOptions configure NewEngine.
type EngineOptions struct {
	// Embedder serves semantic and hybrid searches; nil disables them.
	Embedder Embedder
	// Bus, when set, receives the progress of building an index and of embedding.
	Bus *event.Bus
	// AtClose, when set, registers a function to run when the workspace closes: the
	// indexes are saved and closed then, and stop following their libraries. Without
	// it (a one-shot process) they are never closed, and a watching library's process
	// does not vouch for them (Voucher).
	AtClose func(func())
}

// NewEngine returns an engine that has opened no index yet.
func NewEngine(o EngineOptions) *Engine {
	return &Engine{indexes: libraryIndexes{emb: o.Embedder, bus: o.Bus, atClose: o.AtClose}}
}

// Embedder returns the embeddings model of semantic and hybrid searches, or nil.
func (e *Engine) Embedder() Embedder { return e.indexes.emb }

// InBackground opens the index of every library of libs once its scan has ended, one
// after the other, until atClose runs the function it is given. A failure is left
// for the first search to meet again (and report).
func (e *Engine) InBackground(libs []*library.Library, atClose func(func())) {
	e.indexes.inBackground(libs, atClose)
}

// LibraryIndex is the index of one library as a call in it sees it: a transaction's
// fork of a library (library.InTx) has its parent's index, which does not hold the
// transaction's writes, and they are laid over it.
type LibraryIndex struct {
	ix   *Index
	over stagedOverlay
}

// IndexOf returns the index of l, opening it on first use (reading the persisted
// index and the files changed since, or building it).
func (e *Engine) IndexOf(ctx context.Context, l *library.Library) (LibraryIndex, error) {
	ix, err := e.indexes.get(ctx, l)
	if err != nil {
		return LibraryIndex{}, err
	}
	return LibraryIndex{ix: ix, over: overlayOf(l)}, nil
}

// Search answers a ranked full-text query (Index.Search), with the transaction's
// writes laid over the index.
func (li LibraryIndex) Search(ctx context.Context, r Request) ([]Hit, error) {
	return li.over.search(ctx, li.ix, r)
}
