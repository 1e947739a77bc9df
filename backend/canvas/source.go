package canvas

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// source is what the canvas reads of a library: its notes, and the facts of the
// notes a view shows. The library's graph is one (the app and serve hold it); when
// the graph is not loaded — a one-shot command, or the app while its first scan runs
// — a folderSource stands in, so that a view needs the folder tree and the few notes
// it shows rather than a full index.
type source interface {
	Notes() []vpath.Path
	Has(p vpath.Path) bool
	Note(p vpath.Path) (*note.Note, bool)
	Outlinks(p vpath.Path) []graph.Edge
	Backlinks(p vpath.Path) []graph.Edge
	Generation() uint64
}

// source returns the graph when the library has loaded it, else the folder as listed
// now; when the folder cannot be listed, the graph, or the error of its scan.
func (c *Canvas) source(ctx context.Context) (source, error) {
	if !c.lib.Scanned() {
		if fs, err := newFolderSource(ctx, c.lib.State()); err == nil {
			return fs, nil
		}
	}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// folderSource is the library's folder listed without reading a note; a note is read
// and parsed when a view first shows it. Links are not resolved: it knows no
// backlinks and lists no related notes.
//
// Concurrency: safe for concurrent use.
type folderSource struct {
	v     vault.State
	notes []vpath.Path
	has   map[vpath.Path]bool
	gen   uint64

	mu     sync.Mutex
	parsed map[vpath.Path]*note.Note
}

// folderGen numbers folder sources, so that a rendering cached from one is never
// taken for another's.
var folderGen atomic.Uint64

func newFolderSource(ctx context.Context, v vault.State) (*folderSource, error) {
	files, err := v.WalkPaths(ctx)
	if err != nil {
		return nil, err
	}
	fs := &folderSource{v: v, has: make(map[vpath.Path]bool, len(files)), parsed: map[vpath.Path]*note.Note{}, gen: 1<<63 | folderGen.Add(1)}
	for _, f := range files {
		if f.IsDir || f.Path.Ignored() {
			continue
		}
		fs.has[f.Path] = true
		if f.Path.IsNote() {
			fs.notes = append(fs.notes, f.Path)
		}
	}
	slices.Sort(fs.notes)
	return fs, nil
}

// Notes returns the notes, sorted.
func (fs *folderSource) Notes() []vpath.Path { return fs.notes }

// Has reports whether p is a file of the folder.
func (fs *folderSource) Has(p vpath.Path) bool { return fs.has[p] }

// Note reads and parses the note at p (once).
func (fs *folderSource) Note(p vpath.Path) (*note.Note, bool) {
	if !fs.has[p] || !p.IsNote() {
		return nil, false
	}
	fs.mu.Lock()
	n, ok := fs.parsed[p]
	fs.mu.Unlock()
	if ok {
		return n, n != nil
	}
	data, _, err := fs.v.Read(p)
	if err == nil {
		n = note.ParseLean(data)
	}
	fs.mu.Lock()
	fs.parsed[p] = n
	fs.mu.Unlock()
	return n, n != nil
}

// Outlinks is unknown without the graph.
func (fs *folderSource) Outlinks(vpath.Path) []graph.Edge { return nil }

// Backlinks is unknown without the graph.
func (fs *folderSource) Backlinks(vpath.Path) []graph.Edge { return nil }

// Generation is the source's own number.
func (fs *folderSource) Generation() uint64 { return fs.gen }

// mostLinkedFile keeps, among the vault's caches, the most linked notes as last computed from a graph, for the
// processes that render a view without one.
const mostLinkedFile = "canvas/most-linked.json"

type linkedJSON struct {
	Path vpath.Path `json:"path"`
	In   int        `json:"backlinks"`
}

// saveMostLinked records ml, when it differs from what is recorded (best effort).
func saveMostLinked(v vault.State, ml []linked) {
	out := make([]linkedJSON, len(ml))
	for i, l := range ml {
		out[i] = linkedJSON{l.path, l.in}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return
	}
	if old, err := v.ReadCache(mostLinkedFile); err == nil && string(old) == string(b) {
		return
	}
	_ = v.WriteCache(mostLinkedFile, b) // a view without the line is still a view
}

// loadMostLinked returns the most linked notes as last recorded, or nil.
func loadMostLinked(v vault.State) []linked {
	b, err := v.ReadCache(mostLinkedFile)
	if err != nil {
		return nil
	}
	var in []linkedJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return nil
	}
	out := make([]linked, 0, len(in))
	for _, l := range in {
		out = append(out, linked{l.Path, l.In})
	}
	return out
}
