package catalog

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

// Bounds of a neighbourhood walk.
const (
	maxNeighborDepth = 3
	maxNeighborNodes = 5000
	maxViaEdges      = 3
)

type getNeighborsIn struct {
	EntityName    string   `json:"entity_name" jsonschema:"the note at the centre"`
	Depth         int      `json:"depth,omitempty" jsonschema:"how many steps to walk, 1 to 3 (default 1)"`
	RelationTypes []string `json:"relation_types,omitempty" jsonschema:"only follow edges of these types (\"links to\", \"embeds\", or relation types); all when absent"`
	tool.LibraryArg
	tool.Paging
}

// edgeOut is one edge in a result.
type edgeOut struct {
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

// neighborOut is one note near the centre, with the edges that reached it.
type neighborOut struct {
	Name     string    `json:"name"`
	Distance int       `json:"distance"`
	Via      []edgeOut `json:"via"`
}

// neighborsOut is the output of get_neighbors.
type neighborsOut struct {
	Entity    string        `json:"entity"`
	Neighbors []neighborOut `json:"neighbors"`
	Page      tool.PageInfo `json:"page"`
}

func (e *env) getNeighbors(ctx context.Context, call *tool.Call, in getNeighborsIn) (tool.Result, *neighborsOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	p, fail := lookup(l, clipLong(in.EntityName))
	if fail != nil {
		return *fail, nil, nil
	}
	depth := in.Depth
	if depth <= 0 {
		depth = 1
	}
	var warnings []string
	if depth > maxNeighborDepth {
		warnings = append(warnings, fmt.Sprintf("depth %d lowered to %d", depth, maxNeighborDepth))
		depth = maxNeighborDepth
	}
	types := map[string]bool{}
	for _, t := range in.RelationTypes {
		types[strings.ToLower(strings.TrimSpace(t))] = true
	}
	found, capped := walkNeighbors(l.Graph(), p, depth, types)
	if capped {
		warnings = append(warnings, fmt.Sprintf("stopped after %d notes; lower depth or filter relation_types", maxNeighborNodes))
	}
	page, info := tool.Paginate(found, in.Paging)
	r := tool.OK(info.Hint(fmt.Sprintf("neighbours of %s within %d step(s)", p.Name(), depth)))
	r.Warnings = warnings
	return r, &neighborsOut{Entity: p.Name(), Neighbors: page, Page: info}, nil
}

// walkNeighbors walks resolved edges in both directions from p, breadth first, up to
// depth steps, following only the given types (all when empty).
func walkNeighbors(g *graph.Graph, p vpath.Path, depth int, types map[string]bool) ([]neighborOut, bool) {
	index := map[vpath.Path]int{p: -1}
	var out []neighborOut
	frontier := []vpath.Path{p}
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []vpath.Path
		for _, cur := range frontier {
			edges := append(g.Outlinks(cur), g.Backlinks(cur)...)
			for _, ed := range edges {
				if !ed.Resolved || (len(types) > 0 && !types[strings.ToLower(ed.Type)]) {
					continue
				}
				other := ed.To
				if other == cur {
					other = ed.From
				}
				if other == cur {
					continue
				}
				via := edgeOut{From: ed.From.Name(), To: ed.To.Name(), Type: ed.Type}
				i, seen := index[other]
				if !seen {
					if len(out) >= maxNeighborNodes {
						return out, true
					}
					index[other] = len(out)
					out = append(out, neighborOut{Name: other.Name(), Distance: d})
					next = append(next, other)
					i = len(out) - 1
				}
				if i >= 0 && out[i].Distance == d && len(out[i].Via) < maxViaEdges && !hasEdge(out[i].Via, via) {
					out[i].Via = append(out[i].Via, via)
				}
			}
		}
		frontier = next
	}
	return out, false
}

// hasEdge reports whether es holds e.
func hasEdge(es []edgeOut, e edgeOut) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

type getBacklinksIn struct {
	EntityName string `json:"entity_name" jsonschema:"the note whose incoming links and relations to list"`
	tool.LibraryArg
	tool.Paging
}

// backlinkOut is one incoming link or relation, with its line as context.
type backlinkOut struct {
	Source  string `json:"source"`
	Type    string `json:"type"`
	Line    int    `json:"line,omitempty"`
	Context string `json:"context,omitempty"`
}

// backlinksOut is the output of get_backlinks; a note nothing links to has no page.
type backlinksOut struct {
	Backlinks []backlinkOut  `json:"backlinks"`
	Entity    string         `json:"entity"`
	Page      *tool.PageInfo `json:"page,omitempty"`
}

func (e *env) getBacklinks(ctx context.Context, call *tool.Call, in getBacklinksIn) (tool.Result, *backlinksOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	p, fail := lookup(l, clipLong(in.EntityName))
	if fail != nil {
		return *fail, nil, nil
	}
	g := l.Graph()
	edges := g.Backlinks(p)
	if len(edges) == 0 {
		return tool.OK(fmt.Sprintf("nothing links to %s", p.Name())), &backlinksOut{Entity: p.Name(), Backlinks: []backlinkOut{}}, nil
	}
	page, info := tool.Paginate(edges, in.Paging)
	out, warnings := backlinkContexts(l, page)
	r := tool.OK(info.Hint("backlinks to " + p.Name()))
	r.Warnings = warnings
	return r, &backlinksOut{Entity: p.Name(), Backlinks: out, Page: &info}, nil
}

// backlinkContexts renders edges with the text of the line each one is on, reading
// each source note once.
func backlinkContexts(l lib, edges []graph.Edge) ([]backlinkOut, []string) {
	lines := relationLines{g: l.Graph()}
	texts := map[vpath.Path][]byte{}
	var warnings []string
	out := make([]backlinkOut, 0, len(edges))
	for _, ed := range edges {
		b := backlinkOut{Source: ed.From.Name(), Type: ed.Type, Line: lines.of(ed)}
		data, ok := texts[ed.From]
		if !ok {
			var err error
			if data, err = l.Vault().ReadFile(ed.From); err != nil {
				warnings = append(warnings, fmt.Sprintf("%s could not be read: %v", ed.From, err))
			}
			texts[ed.From] = data
		}
		if b.Line > 0 && data != nil {
			b.Context = lineText(data, b.Line)
		}
		out = append(out, b)
	}
	return out, warnings
}

// lineText returns line n (1-based) of data, trimmed and clipped.
func lineText(data []byte, n int) string {
	start := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data[start:], '\n')
		if j < 0 {
			return ""
		}
		start += j + 1
	}
	s, e := search.LineBounds(data, start)
	return strings.TrimSpace(search.ClipLine(data[s:e], 0))
}
