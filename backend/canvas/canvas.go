// Package canvas is the agent's view of a library (seeds 000 and 003): the folder tree
// with each node — folder (a contents page), page of a large folder, note (a detail
// page) or section of a note — held at a level of detail, title, summary or full, that
// the agent raises and lowers with tools. A view has a name; it persists in
// .memotree/views/<name>.json through the vault's internal-file API, so it survives
// between turns and between processes, and it follows renames and deletions.
//
// Rendering writes the view as an indented tree measured in BPE tokens (Tokens); a
// budget bounds it: when an expansion would exceed the budget, the nodes expanded least
// recently (and not pinned) are collapsed until it fits, and the change says which.
//
// Concurrency: a Canvas is safe for concurrent use. Every change to a view reads the
// view from disk, changes it and writes it back under the vault's cross-process lock,
// so two processes changing the same view never lose each other's change; reads take
// no lock (views are replaced atomically).
package canvas

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// DefaultBudget is the token budget of a view when none is set.
const DefaultBudget = 8000

// Errors callers branch on.
var (
	// ErrNoNode says a node id names nothing in the library.
	ErrNoNode = errors.New("no such node")
	// ErrOverBudget says a node alone does not fit in the budget.
	ErrOverBudget = errors.New("over the canvas budget")
	// ErrViewName says a view name cannot be used.
	ErrViewName = errors.New("invalid view name")
)

// Library is what a canvas needs of a mounted library; *library.Library satisfies it.
type Library interface {
	Name() string
	// Graph returns the link graph, scanning the vault first if need be.
	Graph(ctx context.Context) (*graph.Graph, error)
	// State is the vault's view that keeps the canvas's views under .memotree.
	State() vault.State
	// Scanned reports whether the graph is loaded; a view is rendered from the
	// folder alone until it is.
	Scanned() bool
}

// Canvas holds the views of one library.
type Canvas struct {
	lib    Library
	mu     sync.Mutex // serialises changes within the process (the vault lock, across)
	budget func() int

	mlMu sync.Mutex
	mlAt time.Time
	ml   []linked

	// The last rendering and what it was made from: every model call renders the
	// default view, and most calls find nothing changed.
	cacheMu  sync.Mutex
	cacheKey renderKey
	cached   Rendering
}

// renderKey is what a rendering depends on: the view as stored, the graph, the
// budget and the most linked notes.
type renderKey struct {
	view   string
	stored string
	gen    uint64
	budget int
	mlAt   time.Time
}

// mostLinkedTTL is how long the list of most linked notes is reused: reading every
// edge of a large vault on each model call would cost more than the list is worth.
const mostLinkedTTL = 30 * time.Second

// mostLinked returns the most linked notes, recomputed at most every mostLinkedTTL
// from the graph when src is the graph (and recorded), else read from the record.
func (c *Canvas) mostLinked(src source) []linked {
	c.mlMu.Lock()
	defer c.mlMu.Unlock()
	if c.ml == nil || time.Since(c.mlAt) > mostLinkedTTL {
		if g, ok := src.(*graph.Graph); ok {
			c.ml = mostLinked(g, mostLinkedShown)
			saveMostLinked(c.lib.State(), c.ml)
		} else {
			c.ml = loadMostLinked(c.lib.State())
		}
		c.mlAt = time.Now()
	}
	return c.ml
}

// New returns the canvas of lib. budget, when not nil and positive, overrides the
// library's budget setting.
func New(lib Library, budget func() int) *Canvas {
	return &Canvas{lib: lib, budget: budget}
}

// Budget returns the token budget of every view: the budget function given to New,
// else the library's settings, else DefaultBudget.
func (c *Canvas) Budget() int {
	if c.budget != nil {
		if b := c.budget(); b > 0 {
			return b
		}
	}
	return c.Settings().Budget
}

// Rendering is a view as the model sees it.
type Rendering struct {
	View    string `json:"view"`
	Library string `json:"library"`
	Text    string `json:"text"`
	Tokens  int    `json:"tokens"`
	Budget  int    `json:"budget"`
	// HeaderTokens is the cost of the lines above the tree; with the nodes' costs it
	// adds up to Tokens.
	HeaderTokens int `json:"header_tokens"`
	// Nodes lists every node shown, in order, with its level and token cost.
	Nodes []NodeCost `json:"nodes"`
}

// clone copies r, so that a cached rendering handed out can be changed by its caller.
func (r Rendering) clone() Rendering {
	r.Nodes = slices.Clone(r.Nodes)
	return r
}

// Change is what an expansion, collapse or pin did.
type Change struct {
	Rendering
	// Collapsed lists the nodes collapsed to stay within the budget.
	Collapsed []string `json:"collapsed,omitempty"`
	// Changed lists the nodes whose level or pin changed.
	Changed []string `json:"changed,omitempty"`
}

// ExpandOptions qualify an expansion.
type ExpandOptions struct {
	// Children raises the node's children too: a folder's or page's notes to the
	// same level (subfolders open), a note's sections to the same level.
	Children bool
	// Relations shows, at title level, the notes the node links to and those that
	// link to it (at most MaxRelated).
	Relations bool
	// Pin keeps the node from being collapsed to make room.
	Pin bool
}

// MaxRelated bounds the related notes an expansion with Relations shows.
const MaxRelated = 20

func checkName(name string) (string, error) {
	if name == "" {
		name = DefaultView
	}
	if !ValidViewName(name) {
		return "", fmt.Errorf("%w %q: use letters, digits, '_', '-' or '.'", ErrViewName, name)
	}
	return name, nil
}

// Render returns the view named name (DefaultView when empty) as it stands.
func (c *Canvas) Render(ctx context.Context, name string) (Rendering, error) {
	name, err := checkName(name)
	if err != nil {
		return Rendering{}, err
	}
	stored, err := c.lib.State().ReadInternal(viewFile(name))
	if err != nil && !errors.Is(err, vault.ErrNotFound) {
		return Rendering{}, fmt.Errorf("load view %s: %w", name, err)
	}
	src, err := c.source(ctx)
	if err != nil {
		return Rendering{}, fmt.Errorf("render view %s: %w", name, err)
	}
	c.mostLinked(src) // refresh the list first, so that its time is part of the key
	c.mlMu.Lock()
	mlAt := c.mlAt
	c.mlMu.Unlock()
	key := renderKey{view: name, stored: string(stored), gen: src.Generation(), budget: c.Budget(), mlAt: mlAt}
	c.cacheMu.Lock()
	if c.cacheKey == key {
		r := c.cached
		c.cacheMu.Unlock()
		return r.clone(), nil
	}
	c.cacheMu.Unlock()
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return Rendering{}, err
	}
	r := c.render(newSnapshot(src), vw)
	c.cacheMu.Lock()
	c.cacheKey, c.cached = key, r.clone()
	c.cacheMu.Unlock()
	return r, nil
}

func (c *Canvas) render(s *snapshot, vw *view) Rendering {
	nodes := render(s, c.lib.State(), vw)
	var b strings.Builder
	b.WriteString(header(s, c.lib.Name(), vw.Name, c.mostLinked(s.g)))
	headTokens := Tokens(b.String())
	total := headTokens
	for i := range nodes {
		b.WriteString(nodes[i].Text)
		nodes[i].Tokens = Tokens(nodes[i].Text)
		total += nodes[i].Tokens
	}
	return Rendering{View: vw.Name, Library: c.lib.Name(), Text: b.String(), Tokens: total, Budget: c.Budget(), HeaderTokens: headTokens, Nodes: nodes}
}

// update runs f on the view named name under both locks, prunes nodes that no longer
// exist, enforces the budget (never collapsing keep) and saves the view.
func (c *Canvas) update(ctx context.Context, name string, keep string, f func(s *snapshot, vw *view) ([]string, error)) (Change, error) {
	name, err := checkName(name)
	if err != nil {
		return Change{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, err := c.lib.State().Lock(ctx)
	if err != nil {
		return Change{}, fmt.Errorf("change view %s: %w", name, err)
	}
	defer unlock()
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return Change{}, err
	}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return Change{}, fmt.Errorf("change view %s: %w", name, err)
	}
	s := newSnapshot(g)
	prune(s, vw)
	changed, err := f(s, vw)
	if err != nil {
		return Change{}, err
	}
	ch := Change{Changed: changed}
	r := c.render(s, vw)
	for r.Tokens > r.Budget {
		victim := lru(vw, keep)
		if victim == "" {
			break
		}
		collapse(vw, victim, false)
		ch.Collapsed = append(ch.Collapsed, victim)
		r = c.render(s, vw)
	}
	if r.Tokens > r.Budget && keep != "" {
		return Change{}, fmt.Errorf("%w: the view needs %d tokens with %s, the budget is %d", ErrOverBudget, r.Tokens, keep, r.Budget)
	}
	if err := vw.save(c.lib.State()); err != nil {
		return Change{}, err
	}
	ch.Rendering = r
	return ch, nil
}

// prune drops the nodes that no longer exist.
func prune(s *snapshot, vw *view) {
	for id := range vw.Nodes {
		if _, ok := s.resolve(id); !ok {
			delete(vw.Nodes, id)
		}
	}
	if vw.Nodes[RootID] == nil && vw.fresh {
		vw.Nodes[RootID] = &nodeState{Level: Summary}
	}
}

// lru returns the held, unpinned node expanded least recently, other than keep and
// the root, or "".
func lru(vw *view, keep string) string {
	best, seq := "", int64(-1)
	for id, st := range vw.Nodes {
		if id == keep || id == RootID || st.Pinned || st.Closed {
			continue
		}
		if seq < 0 || st.Seq < seq || (st.Seq == seq && id < best) {
			best, seq = id, st.Seq
		}
	}
	return best
}

// collapse removes id (and, when recursive, everything below it) from the view. A
// folder or page collapsed without recursive while the view holds nodes below it is
// kept closed instead (nodeState.Closed), so that they are hidden until it opens.
func collapse(vw *view, id string, recursive bool) []string {
	var out []string
	if st, ok := vw.Nodes[id]; ok && !st.Closed {
		delete(vw.Nodes, id)
		out = append(out, id)
	}
	var below []string
	for _, other := range vw.ids() {
		if under(other, id) {
			below = append(below, other)
		}
	}
	switch {
	case recursive:
		for _, other := range below {
			if !vw.Nodes[other].Pinned {
				delete(vw.Nodes, other)
				out = append(out, other)
			}
		}
	case len(below) > 0 && isContainer(id):
		if st := vw.Nodes[id]; st == nil || !st.Closed {
			vw.Nodes[id] = &nodeState{Level: Title, Closed: true, Seq: vw.Seq}
			if len(out) == 0 {
				out = append(out, id)
			}
		}
	}
	return out
}

// isContainer reports whether id names a folder or a page of one.
func isContainer(id string) bool {
	return id == RootID || strings.HasSuffix(id, "/") || strings.HasSuffix(id, "]")
}

// reopen drops the closed mark of every container above n, so that a node expanded
// inside a closed folder is shown.
func reopen(s *snapshot, vw *view, n node) {
	for p, ok := s.parentOf(n); ok; p, ok = s.parentOf(p) {
		if st := vw.Nodes[p.id]; st != nil && st.Closed {
			delete(vw.Nodes, p.id)
		}
	}
}

// under reports whether node id lies below container or note parent.
func under(id, parent string) bool {
	switch {
	case parent == RootID:
		return id != RootID
	case strings.HasSuffix(parent, "/"):
		return strings.HasPrefix(id, parent)
	case strings.HasSuffix(parent, "]"):
		return strings.HasPrefix(id, strings.TrimSuffix(parent, "]")+".")
	}
	return strings.HasPrefix(id, parent+"#")
}

// Expand raises the node id (a node id: see NodeID) to level in the view named name.
func (c *Canvas) Expand(ctx context.Context, name, id string, level Level, o ExpandOptions) (Change, error) {
	return c.update(ctx, name, id, func(s *snapshot, vw *view) ([]string, error) {
		n, ok := s.resolve(id)
		if !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoNode, id)
		}
		vw.set(id, level)
		reopen(s, vw, n)
		if o.Pin {
			vw.Nodes[id].Pinned = true
		}
		changed := []string{id}
		if o.Children {
			for _, ch := range s.children(n) {
				l := level
				if ch.kind != KindNote {
					l = Summary
				}
				vw.set(ch.id, l)
				changed = append(changed, ch.id)
			}
			if n.kind == KindNote {
				changed = append(changed, c.expandSections(s, vw, n, level)...)
			}
		}
		if o.Relations && n.kind == KindNote {
			for _, p := range related(s, n.path) {
				if _, held := vw.Nodes[NoteID(p)]; !held {
					vw.set(NoteID(p), Title)
					changed = append(changed, NoteID(p))
				}
			}
		}
		return changed, nil
	})
}

func (c *Canvas) expandSections(s *snapshot, vw *view, n node, level Level) []string {
	nt, ok := s.g.Note(n.path)
	if !ok {
		return nil
	}
	var out []string
	for _, h := range nt.Headings {
		id := n.id + "#" + h.Text
		vw.set(id, level)
		out = append(out, id)
	}
	return out
}

// related lists the notes p links to and those linking to it, at most MaxRelated.
func related(s *snapshot, p vpath.Path) []vpath.Path {
	seen := map[vpath.Path]bool{p: true}
	var out []vpath.Path
	add := func(q vpath.Path) {
		if q != "" && !seen[q] && q.IsNote() && len(out) < MaxRelated {
			seen[q] = true
			out = append(out, q)
		}
	}
	for _, e := range s.g.Outlinks(p) {
		add(e.To)
	}
	for _, e := range s.g.Backlinks(p) {
		add(e.From)
	}
	return out
}

// Collapse lowers the node id to title (a folder or page closes) in the view named
// name; recursive also collapses everything held below it, except pinned nodes.
func (c *Canvas) Collapse(ctx context.Context, name, id string, recursive bool) (Change, error) {
	return c.update(ctx, name, "", func(s *snapshot, vw *view) ([]string, error) {
		if _, ok := s.resolve(id); !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoNode, id)
		}
		out := collapse(vw, id, recursive)
		if id == RootID && vw.Nodes[RootID] == nil {
			// The root stays listed; closed, it shows only its folders.
			vw.set(RootID, Title)
		}
		return out, nil
	})
}

// Pin pins or unpins the node id: a pinned node is never collapsed to make room.
// Pinning a node the view does not hold shows it at title level.
func (c *Canvas) Pin(ctx context.Context, name, id string, pinned bool) (Change, error) {
	return c.update(ctx, name, "", func(s *snapshot, vw *view) ([]string, error) {
		if _, ok := s.resolve(id); !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoNode, id)
		}
		st := vw.Nodes[id]
		if st == nil {
			vw.set(id, Title)
			st = vw.Nodes[id]
		}
		st.Pinned = pinned
		return []string{id}, nil
	})
}

// Views lists the names of the saved views, sorted. Listing creates nothing: a vault
// the agent never changed has no views folder (nor .memotree) and no saved views.
func (c *Canvas) Views() ([]string, error) {
	names, err := c.lib.State().ListInternal(path.Dir(viewFile(DefaultView)))
	if err != nil {
		return nil, fmt.Errorf("list views: %w", err)
	}
	var out []string
	for _, name := range names {
		if n, ok := strings.CutSuffix(name, ".json"); ok && ValidViewName(n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Renamed moves what every view holds of the note oldP (and its sections) to newP.
func (c *Canvas) Renamed(ctx context.Context, oldP, newP vpath.Path) error {
	names, err := c.Views()
	if err != nil {
		return err
	}
	oldID, newID := NoteID(oldP), NoteID(newP)
	for _, name := range names {
		if err := c.rename(ctx, name, oldID, newID); err != nil {
			return err
		}
	}
	return nil
}

// rename rewrites the ids of one view.
func (c *Canvas) rename(ctx context.Context, name, oldID, newID string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, err := c.lib.State().Lock(ctx)
	if err != nil {
		return fmt.Errorf("change view %s: %w", name, err)
	}
	defer unlock()
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return err
	}
	moved := false
	for _, id := range vw.ids() {
		var nid string
		switch {
		case id == oldID:
			nid = newID
		case strings.HasPrefix(id, oldID+"#"):
			nid = newID + id[len(oldID):]
		default:
			continue
		}
		st := vw.Nodes[id]
		delete(vw.Nodes, id)
		if prev, ok := vw.Nodes[nid]; !ok || prev.Level.rank() < st.Level.rank() {
			vw.Nodes[nid] = st
		}
		moved = true
	}
	if !moved {
		return nil
	}
	return vw.save(c.lib.State())
}
