package canvas

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// Level is how much of a node the view shows.
type Level string

// The levels, from least to most.
const (
	// Title shows one line: the name, the type, and counts of children and links.
	// A folder at Title is collapsed.
	Title Level = "title"
	// Summary adds the note's summary (front matter `summary`, else its first
	// paragraph); a folder or page at Summary is open and lists its children.
	Summary Level = "summary"
	// Full shows the whole note; an open folder at Full also shows its notes'
	// summaries.
	Full Level = "full"
)

// rank orders the levels.
func (l Level) rank() int {
	switch l {
	case Summary:
		return 1
	case Full:
		return 2
	}
	return 0
}

// ParseLevel returns the level named s, or an error naming the levels.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Title, Summary, Full:
		return l, nil
	}
	return "", fmt.Errorf("level %q: want title, summary or full", s)
}

// DefaultView is the view used when no view name is given.
const DefaultView = "default"

// ValidViewName reports whether s can name a view (it becomes a file name).
func ValidViewName(s string) bool { return vpath.ValidName(s) && s != "." && s != ".." }

// nodeState is what a view remembers of one node it holds explicitly.
type nodeState struct {
	Level  Level `json:"level"`
	Pinned bool  `json:"pinned,omitempty"`
	// Seq orders expansions: the node with the smallest Seq was expanded least
	// recently and is collapsed first when the budget is exceeded.
	Seq int64 `json:"seq"`
	// Closed marks a folder or page collapsed without recursive while nodes below it
	// were held: it shows closed and hides them, and they come back as they were when
	// it opens again (seed 000's collapse).
	Closed bool `json:"closed,omitempty"`
}

// view is the persisted state of one named view.
type view struct {
	Name  string                `json:"name"`
	Seq   int64                 `json:"seq"`
	Nodes map[string]*nodeState `json:"nodes"`
	// Fresh is true for a view never saved: it starts as the default view.
	fresh bool
}

// newView returns the default state of a view: only the root, open.
func newView(name string) *view {
	return &view{Name: name, Nodes: map[string]*nodeState{RootID: {Level: Summary}}, fresh: true}
}

// file is where a view is stored, inside .memotree.
func viewFile(name string) string { return "views/" + name + ".json" }

// loadView reads the view named name from v, or returns its default state.
func loadView(v vault.State, name string) (*view, error) {
	b, err := v.ReadInternal(viewFile(name))
	if errors.Is(err, vault.ErrNotFound) {
		return newView(name), nil
	}
	if err != nil {
		return nil, fmt.Errorf("load view %s: %w", name, err)
	}
	vw := &view{}
	if err := json.Unmarshal(b, vw); err != nil || vw.Nodes == nil {
		// A damaged view is not worth failing a turn for: start over.
		return newView(name), nil
	}
	vw.Name = name
	for id, st := range vw.Nodes {
		if _, err := ParseLevel(string(st.Level)); err != nil {
			delete(vw.Nodes, id)
		}
	}
	return vw, nil
}

// save writes the view atomically.
func (vw *view) save(v vault.State) error {
	b, err := json.MarshalIndent(vw, "", " ")
	if err != nil {
		return fmt.Errorf("save view %s: %w", vw.Name, err)
	}
	if err := v.WriteInternal(viewFile(vw.Name), append(b, '\n')); err != nil {
		return fmt.Errorf("save view %s: %w", vw.Name, err)
	}
	vw.fresh = false
	return nil
}

// set records a node at a level as the most recent expansion.
func (vw *view) set(id string, l Level) {
	vw.Seq++
	st := vw.Nodes[id]
	if st == nil {
		st = &nodeState{}
		vw.Nodes[id] = st
	}
	st.Level, st.Seq, st.Closed = l, vw.Seq, false
}

// level returns the level of a node the view holds, and whether it holds it.
func (vw *view) level(id string) (Level, bool) {
	if st, ok := vw.Nodes[id]; ok {
		return st.Level, true
	}
	return Title, false
}

// ids returns the ids of the nodes held, sorted.
func (vw *view) ids() []string {
	out := make([]string, 0, len(vw.Nodes))
	for id := range vw.Nodes {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
