package canvas

import (
	"context"

	"github.com/memotree/memotree/backend/vpath"
)

// Reach reports, for every note of the library, how many expand_node calls make it
// appear in the view named name as it stands: 0 for a note already shown, 1 for a
// note of a closed folder that is shown, and so on down closed folders and pages. It
// measures the design goal that any note is a few expansions away.
func (c *Canvas) Reach(ctx context.Context, name string) (map[vpath.Path]int, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return nil, err
	}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil, err
	}
	s := newSnapshot(g)
	out := make(map[vpath.Path]int, s.total[""])
	root, _ := s.resolve(RootID)
	reach(s, vw, root, 0, out)
	return out, nil
}

// reach walks the tree below the shown container n, which costs k calls to show.
func reach(s *snapshot, vw *view, n node, k int, out map[vpath.Path]int) {
	lv, _ := vw.level(n.id)
	open := lv.rank() >= Summary.rank()
	for _, ch := range s.children(n) {
		ck := k + 1
		_, held := vw.Nodes[ch.id]
		if open || held || (ch.kind == KindFolder && s.inOutline(ch.folder)) {
			ck = k
		}
		if ch.kind == KindNote {
			out[ch.path] = ck
			continue
		}
		reach(s, vw, ch, ck, out)
	}
}

// PathTo lists the containers to open, from the top, so that the note at p appears:
// the closed folders and pages between the root and the note that the view does not
// already show open. It is the sequence of expand_node calls Reach counts.
func (c *Canvas) PathTo(ctx context.Context, name string, p vpath.Path) ([]string, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	vw, err := loadView(c.lib.State(), name)
	if err != nil {
		return nil, err
	}
	g, err := c.lib.Graph(ctx)
	if err != nil {
		return nil, err
	}
	s := newSnapshot(g)
	n, ok := s.resolve(NoteID(p))
	if !ok {
		return nil, ErrNoNode
	}
	var chain []node
	for a, ok := s.parentOf(n); ok; a, ok = s.parentOf(a) {
		chain = append([]node{a}, chain...)
	}
	var out []string
	for i, a := range chain {
		lv, _ := vw.level(a.id)
		if lv.rank() >= Summary.rank() {
			continue
		}
		next := n
		if i+1 < len(chain) {
			next = chain[i+1]
		}
		if _, held := vw.Nodes[next.id]; held || (next.kind == KindFolder && s.inOutline(next.folder)) {
			continue
		}
		out = append(out, a.id)
	}
	return out, nil
}
