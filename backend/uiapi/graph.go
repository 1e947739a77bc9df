package uiapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vpath"
)

// GraphData is the whole graph of a library in a compact form: a 10k-note vault has
// about 110k edges, and objects per edge made the payload 14 MB and the window slow to
// decode it. Nodes are numbered by their position in Nodes; each edge is three numbers.
type GraphData struct {
	// Library names the library the graph is of (the default one's name when the
	// window asked for "", as it does before it knows the names).
	Library string `json:"library"`
	// Nodes holds the node ids: a note's vault path, an attachment's vault path (a file
	// a note links to that is not a note), or "unresolved:<name>" for a link target that
	// names no file. Notes come first, then attachments, then unresolved names.
	Nodes []string `json:"nodes"`
	// Labels holds the name shown for each node, parallel to Nodes.
	Labels []string `json:"labels"`
	// Types is the table of entity types; Types[0] is "" (no type).
	Types []string `json:"types"`
	// NodeTypes holds an index into Types for each node, parallel to Nodes.
	NodeTypes []int `json:"node_types"`
	// FirstAttachment is the index of the first attachment in Nodes (FirstUnresolved
	// when there is none).
	FirstAttachment int `json:"first_attachment"`
	// FirstUnresolved is the index of the first unresolved name in Nodes (len(Nodes) when
	// there is none).
	FirstUnresolved int `json:"first_unresolved"`
	// Tags is the table of tags the notes carry, without "#", as written.
	Tags []string `json:"tags"`
	// NoteTags holds pairs: a node index and an index into Tags, one pair per tag a
	// note carries.
	NoteTags []int `json:"note_tags"`
	// Relations is the table of edge types: "links to", "embeds" and relation types.
	Relations []string `json:"relations"`
	// Edges holds triples: source node, target node, index into Relations.
	Edges []int `json:"edges"`
	// Aliases holds the aliases of the notes that have some, by node index.
	Aliases map[int][]string `json:"aliases"`

	// encoded is the JSON of the fields above, made once for every caller of the same
	// graph generation (see graphCache); nil for a GraphData made by hand.
	encoded []byte
}

// MarshalJSON writes the data's JSON, reusing the encoding made when the data was built:
// a 10k-note graph takes a sizeable fraction of a second to encode.
func (d GraphData) MarshalJSON() ([]byte, error) {
	if d.encoded != nil {
		return d.encoded, nil
	}
	return d.encode()
}

// encode writes the data's JSON, the same as encoding/json would write for its fields:
// the number lists (3.3 million numbers at 100k notes) are written by hand, several
// times faster than through reflection, and the whole is not checked and compacted
// again afterwards, as json.Marshal does with a MarshalJSON's answer.
func (d GraphData) encode() ([]byte, error) {
	b := make([]byte, 0, 64+8*(len(d.Edges)+len(d.NodeTypes)+len(d.NoteTags))+48*len(d.Nodes))
	var err error
	str := func(key string, v any) {
		if err != nil {
			return
		}
		var enc []byte
		if enc, err = json.Marshal(v); err == nil {
			b = append(append(append(b, `"`...), key...), `":`...)
			b = append(append(b, enc...), ',')
		}
	}
	ints := func(key string, v []int) {
		b = append(append(append(b, `"`...), key...), `":`...)
		if v == nil {
			b = append(b, "null,"...)
			return
		}
		b = append(b, '[')
		for i, n := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		b = append(b, "],"...)
	}
	num := func(key string, n int) {
		b = append(append(append(b, `"`...), key...), `":`...)
		b = append(strconv.AppendInt(b, int64(n), 10), ',')
	}
	b = append(b, '{')
	str("library", d.Library)
	str("nodes", d.Nodes)
	str("labels", d.Labels)
	str("types", d.Types)
	ints("node_types", d.NodeTypes)
	num("first_attachment", d.FirstAttachment)
	num("first_unresolved", d.FirstUnresolved)
	str("tags", d.Tags)
	ints("note_tags", d.NoteTags)
	str("relations", d.Relations)
	ints("edges", d.Edges)
	str("aliases", d.Aliases)
	if err != nil {
		return nil, fmt.Errorf("encode graph: %w", err)
	}
	b[len(b)-1] = '}'
	return b, nil
}

// EncodedJSON returns the JSON made when the data was built (nil for data made by
// hand), for the HTTP API to send as it is.
func (d GraphData) EncodedJSON() []byte { return d.encoded }

// graphCache keeps each library's last graph payload, encoded, while its graph
// generation stays the same: the window asks for the whole graph at every start and
// after every change, and a 10k-note vault takes about half a second to build and
// encode. One mutex serialises the builds, so that callers arriving during a build
// (the window, right after Options.WarmGraph started one) wait for it instead of building again.
type graphCache struct {
	mu      sync.Mutex
	entries map[string]graphEntry // by library name
}

type graphEntry struct {
	g    *graph.Graph // a vault closed and opened again under its name has a new graph
	gen  uint64
	data GraphData
}

// interner numbers distinct strings in order of first appearance.
type interner struct {
	index map[string]int
	list  []string
}

func (in *interner) id(s string) int {
	if i, ok := in.index[s]; ok {
		return i
	}
	if in.index == nil {
		in.index = map[string]int{}
	}
	in.index[s] = len(in.list)
	in.list = append(in.list, s)
	return len(in.list) - 1
}

// Graph returns the library's notes and the edges between them; attachments and
// unresolved link targets are nodes too, as in Obsidian's graph with attachments
// shown and "existing files only" off (the window's filters hide them). Self-links
// are left out. "" names the default library.
// The answer is built once per change of the library's graph (see graphCache).
func (a *API) Graph(libraryName string) (GraphData, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return GraphData{}, err
	}
	g, err := graphOf(l)
	if err != nil {
		return GraphData{}, err
	}
	c := &a.graphs
	c.mu.Lock()
	defer c.mu.Unlock()
	// The generation is read before the build: a change during the build leaves an
	// older generation in the cache, so the next call builds again.
	gen := g.Generation()
	if e, ok := c.entries[l.Name()]; ok && e.g == g && e.gen == gen {
		return e.data, nil
	}
	out := buildGraphData(g)
	out.Library = l.Name()
	enc, err := out.encode()
	if err != nil {
		return GraphData{}, err
	}
	out.encoded = enc
	if c.entries == nil {
		c.entries = map[string]graphEntry{}
	}
	if _, had := c.entries[l.Name()]; !had {
		name := l.Name()
		l.OnClose(func() { // a closed vault's payload leaves with it
			c.mu.Lock()
			if e, ok := c.entries[name]; ok && e.g == g {
				delete(c.entries, name)
			}
			c.mu.Unlock()
		})
	}
	c.entries[l.Name()] = graphEntry{g: g, gen: gen, data: out}
	return out, nil
}

// graphOf returns a library's graph, waiting for its scan. The bound methods have no
// context (Wails calls them so), so they wait as long as the scan takes; its error is
// theirs.
func graphOf(l *library.Library) (*graph.Graph, error) {
	g, err := l.Graph(context.Background())
	if err != nil {
		return nil, fmt.Errorf("read library %s: %w", l.Name(), err)
	}
	return g, nil
}

// warmGraph builds the default library's graph payload in the background (see
// Options.WarmGraph).
func (a *API) warmGraph() {
	if a.ws == nil || len(a.ws.Libraries()) == 0 { // nothing open yet: the welcome
		return
	}
	go func() {
		_, _ = a.Graph("")
		// The search indexes too, once the payload is built: the catalogue builds
		// them once the scans end, and built beside the payload, on the same cores,
		// they made the window's graph wait (at 100k notes the index takes both cores
		// for seconds). A search asked for before then builds its index itself.
		warmIndexes(a)
	}()
}

// warmIndexes starts the search indexes of a.ws (a variable for the test of when).
var warmIndexes = func(a *API) { _, _ = a.ws.Registry() }

// edgeBound is the most numbers the edges of g can take in GraphData.Edges.
func edgeBound(g *graph.Graph) int {
	s := g.Stats()
	return 3 * (s.Links + s.Relations)
}

// buildGraphData numbers the nodes and edges of g (see GraphData).
func buildGraphData(g *graph.Graph) GraphData {
	notes := g.Notes()
	out := GraphData{
		Nodes:     make([]string, 0, len(notes)),
		Labels:    make([]string, 0, len(notes)),
		NodeTypes: make([]int, 0, len(notes)),
		// Every link and relation at most: the list is not grown and copied again
		// and again (3.3 million numbers at 100k notes).
		Edges:    make([]int, 0, edgeBound(g)),
		Aliases:  map[int][]string{},
		NoteTags: []int{},
	}
	var types, rels, tags interner
	nodes := interner{index: make(map[string]int, len(notes))} // grown once, not step by step
	types.id("")
	add := func(id, label string, typ int) int {
		i := nodes.id(id)
		if i == len(out.Nodes) {
			out.Nodes = append(out.Nodes, id)
			out.Labels = append(out.Labels, label)
			out.NodeTypes = append(out.NodeTypes, typ)
		}
		return i
	}
	for _, p := range notes {
		typ := 0
		n, _ := g.Note(p)
		if n != nil {
			typ = types.id(n.EntityType)
		}
		i := add(string(p), p.Base()[:len(p.Base())-len(p.Ext())], typ)
		if n == nil {
			continue
		}
		if len(n.Aliases) > 0 {
			out.Aliases[i] = n.Aliases
		}
		for _, t := range n.Tags {
			out.NoteTags = append(out.NoteTags, i, tags.id(t.Name))
		}
	}
	// Attachments: the files notes link to that are not notes, after the notes,
	// numbered as the edges meet them.
	out.FirstAttachment = len(out.Nodes)
	// Edges come by source: the source's number is looked up once per source.
	last, lastID, lastOK := vpath.Path(""), 0, false
	source := func(from vpath.Path) (int, bool) {
		if from != last || last == "" {
			last = from
			lastID, lastOK = nodes.index[string(from)]
		}
		return lastID, lastOK
	}
	// Most edges are of the type of the edge before them: its number is looked up
	// once per run of one type.
	lastTyp, lastRel := "", -1
	rel := func(typ string) int {
		if lastRel < 0 || typ != lastTyp {
			lastTyp, lastRel = typ, rels.id(typ)
		}
		return lastRel
	}
	g.EachEdge(true, func(from, to vpath.Path, _, typ string) {
		if from == to {
			return
		}
		// One lookup finds every note and the attachments met before; a file the
		// lookup misses is a new attachment, or a note the graph has no content of.
		t, ok2 := nodes.index[string(to)]
		if !ok2 && !to.IsNote() {
			t, ok2 = add(string(to), to.Base(), 0), true
		}
		if f, ok1 := source(from); ok1 && ok2 {
			out.Edges = append(out.Edges, f, t, rel(typ))
		}
	})
	out.FirstUnresolved = len(out.Nodes)
	last = ""
	g.EachEdge(false, func(from, _ vpath.Path, target, typ string) {
		if target == "" {
			return
		}
		f, ok := source(from)
		if !ok {
			return
		}
		t := add("unresolved:"+target, target, 0)
		out.Edges = append(out.Edges, f, t, rel(typ))
	})
	out.Types, out.Relations, out.Tags = types.list, rels.list, tags.list
	if out.Relations == nil {
		out.Relations = []string{}
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	return out
}
