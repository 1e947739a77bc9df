package catalog

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

type findRelationsIn struct {
	From         string `json:"from,omitempty" jsonschema:"only relations stored in this note"`
	ToEntity     string `json:"to_entity,omitempty" jsonschema:"only relations pointing to this note (it may not exist)"`
	RelationType string `json:"relation_type,omitempty" jsonschema:"only relations of this type; \"links to\" gives body [[links]] and \"embeds\" embeds"`
	tool.LibraryArg
	tool.Paging
}

// foundRelationsOut is the output of find_relations: one page of relations, with the
// count of each type; none found has neither.
type foundRelationsOut struct {
	FoundRelations []relationOut  `json:"found_relations"`
	Page           *tool.PageInfo `json:"page,omitempty"`
	Types          map[string]int `json:"types,omitempty"`
}

func (e *env) findRelations(ctx context.Context, call *tool.Call, in findRelationsIn) (tool.Result, *foundRelationsOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	typ := strings.TrimSpace(in.RelationType)
	if len(typ) > maxRelationType || hasControl(typ) {
		return tool.Fail(tool.CodeInvalidArguments, "relation_type must be one line of at most %d bytes", maxRelationType), nil, nil
	}
	edges, fail := relationEdges(l, in.From, in.ToEntity, typ)
	if fail != nil {
		return *fail, nil, nil
	}
	g := l.Graph()
	var found []relationOut
	types := map[string]int{}
	lines := relationLines{g: g}
	for _, ed := range edges {
		if !edgeKindMatches(ed, typ) {
			continue
		}
		out := relationOut{From: ed.From.Name(), To: ed.To.Name(), Type: ed.Type, Line: lines.of(ed), Dangling: !ed.Resolved}
		if !ed.Resolved {
			out.To = ed.Target
		}
		found = append(found, out)
		types[ed.Type]++
	}
	if len(found) == 0 {
		hint := "create_relations adds relations; relation_type \"links to\" finds body links"
		return tool.OK("no relations found; " + hint), &foundRelationsOut{FoundRelations: []relationOut{}}, nil
	}
	page, info := tool.Paginate(found, in.Paging)
	return tool.OK(info.Hint("relations")), &foundRelationsOut{FoundRelations: page, Types: types, Page: &info}, nil
}

// relationEdges returns the edges a find_relations call starts from: the note's
// outgoing edges, the incoming edges of the target (or the dangling edges naming it),
// or every edge of the library.
func relationEdges(l lib, from, to, typ string) ([]graph.Edge, *tool.Result) {
	g := l.Graph()
	var fromPath vpath.Path
	if strings.TrimSpace(from) != "" {
		p, fail := lookup(l, clipLong(from))
		if fail != nil {
			return nil, fail
		}
		fromPath = p
	}
	if strings.TrimSpace(to) == "" {
		if fromPath != "" {
			return g.Outlinks(fromPath), nil
		}
		if !strings.EqualFold(typ, graph.TypeLink) && !strings.EqualFold(typ, graph.TypeEmbed) {
			return allRelations(g), nil // without copying every body link
		}
		return append(g.Edges(), g.Unresolved()...), nil
	}
	toPath, fail := lookup(l, clipLong(to))
	var edges []graph.Edge
	if fail == nil {
		edges = g.Backlinks(toPath)
	} else {
		edges = danglingTo(g, to)
		if len(edges) == 0 {
			return nil, fail
		}
	}
	if fromPath == "" {
		return edges, nil
	}
	kept := edges[:0]
	for _, ed := range edges {
		if ed.From == fromPath {
			kept = append(kept, ed)
		}
	}
	return kept, nil
}

// allRelations returns the typed relations of every note as edges, in path order.
func allRelations(g *graph.Graph) []graph.Edge {
	var out []graph.Edge
	for _, p := range g.Notes() {
		n, ok := g.Note(p)
		if !ok {
			continue
		}
		for _, r := range n.Relations {
			ed := graph.Edge{From: p, Target: r.To, Type: r.Type}
			if ed.Type == "" {
				ed.Type = graph.TypeRelation
			}
			ed.To, ed.Resolved = g.Resolve(p, r.To)
			out = append(out, ed)
		}
	}
	return out
}

// danglingTo returns the unresolved edges whose target is name.
func danglingTo(g *graph.Graph, name string) []graph.Edge {
	name = strings.TrimSpace(note.StripLink(name))
	var out []graph.Edge
	for _, ed := range g.Unresolved() {
		if strings.EqualFold(ed.Target, name) {
			out = append(out, ed)
		}
	}
	return out
}

// edgeKindMatches reports whether an edge is of the asked type: typed relations only
// when typ is empty, body links for "links to", embeds for "embeds".
func edgeKindMatches(ed graph.Edge, typ string) bool {
	isRelation := ed.Link == nil
	switch {
	case typ == "":
		return isRelation
	case strings.EqualFold(typ, graph.TypeLink), strings.EqualFold(typ, graph.TypeEmbed):
		return !isRelation && strings.EqualFold(ed.Type, typ)
	}
	return isRelation && strings.EqualFold(ed.Type, typ)
}

// relationLines finds the line of a relation edge in its note, caching the notes'
// relation lists.
type relationLines struct {
	g    *graph.Graph
	seen map[vpath.Path][]note.Relation
}

// of returns the 1-based line of the edge in its source, or 0 when unknown.
func (rl *relationLines) of(ed graph.Edge) int {
	if ed.Link != nil {
		return int(ed.Link.Line)
	}
	if rl.seen == nil {
		rl.seen = map[vpath.Path][]note.Relation{}
	}
	rels, ok := rl.seen[ed.From]
	if !ok {
		if n, found := rl.g.Note(ed.From); found {
			rels = n.Relations
		}
		rl.seen[ed.From] = rels
	}
	for _, r := range rels {
		if strings.EqualFold(r.Type, ed.Type) && strings.EqualFold(r.To, ed.Target) {
			return r.Line
		}
	}
	return 0
}

type gcRelationsIn struct {
	DryRun *bool `json:"dry_run,omitempty" jsonschema:"true (the default) only lists the dangling relations; false removes them"`
	tool.LibraryArg
	tool.Paging
}

// dryRun reports whether the call only lists the dangling relations: unless dry_run
// is false. The handler and the policy (tool.DryRun) decide by it.
func (in gcRelationsIn) dryRun() bool { return in.DryRun == nil || *in.DryRun }

// danglingOut is one relation whose target does not exist (seed 002's shape).
type danglingOut struct {
	InEntity   string `json:"in_entity"`
	RelationTo string `json:"relation_to"`
	Type       string `json:"type"`
	Line       int    `json:"line,omitempty"`
}

// gcOut is the output of garbage_collect_relations: with dry_run (the default) one page
// of the dangling relations found; otherwise how many were removed, and from which
// notes.
type gcOut struct {
	AffectedEntities       []string       `json:"affected_entities,omitzero"`
	CleanedRelationsCount  *int           `json:"cleaned_relations_count,omitempty"`
	DanglingRelationsFound []danglingOut  `json:"dangling_relations_found,omitzero"`
	Page                   *tool.PageInfo `json:"page,omitempty"`
}

func (e *env) garbageCollectRelations(ctx context.Context, call *tool.Call, in gcRelationsIn) (tool.Result, *gcOut, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	g := l.Graph()
	lines := relationLines{g: g}
	dangling := []danglingOut{}
	var notes []vpath.Path
	for _, ed := range g.Unresolved() {
		if ed.Link != nil {
			continue
		}
		if len(notes) == 0 || notes[len(notes)-1] != ed.From {
			notes = append(notes, ed.From)
		}
		dangling = append(dangling, danglingOut{InEntity: ed.From.Name(), RelationTo: ed.Target, Type: ed.Type, Line: lines.of(ed)})
	}
	if in.dryRun() {
		page, info := tool.Paginate(dangling, in.Paging)
		msg := info.Hint("dangling relations")
		if len(dangling) > 0 {
			msg += "; call again with dry_run=false to remove them"
		}
		return tool.OK(msg), &gcOut{DanglingRelationsFound: page, Page: &info}, nil
	}
	return cleanDangling(ctx, call, l, notes)
}

// cleanDangling removes from each note the relations whose target resolves nowhere.
func cleanDangling(ctx context.Context, call *tool.Call, l lib, notes []vpath.Path) (tool.Result, *gcOut, error) {
	sort.Slice(notes, func(i, j int) bool { return notes[i] < notes[j] })
	notes = compactPaths(notes)
	g := l.Graph()
	var count, pending int
	var affected, warnings []string
	rw := relRewrite{
		start: func() { count, affected, warnings = 0, []string{}, nil },
		edit: func(p vpath.Path, seq *yaml.Node) bool {
			removed := 0
			kept := seq.Content[:0:0]
			for _, item := range seq.Content {
				if _, to := itemFields(item); to != "" {
					if _, ok := g.Resolve(p, to); !ok {
						removed++
						continue
					}
				}
				kept = append(kept, item)
			}
			seq.Content = kept
			pending = removed
			return removed > 0
		},
		wrote: func(p vpath.Path) {
			count += pending
			affected = append(affected, p.Name())
		},
		skip: func(_ vpath.Path, why *tool.Result) { warnings = append(warnings, why.Message) },
	}
	if r, err := rw.run(ctx, call, l.Library, "garbage_collect_relations", notes); err != nil {
		return tool.Result{}, nil, err
	} else if r != nil {
		return *r, nil, nil
	}
	out := &gcOut{CleanedRelationsCount: &count, AffectedEntities: affected}
	msg := fmt.Sprintf("removed %d dangling relation(s) from %d note(s)", count, len(affected))
	if len(warnings) > 0 {
		return tool.Partial(msg, warnings...), out, nil
	}
	return tool.OK(msg), out, nil
}

// compactPaths removes adjacent duplicates from a sorted list.
func compactPaths(ps []vpath.Path) []vpath.Path {
	out := ps[:0]
	for i, p := range ps {
		if i == 0 || p != ps[i-1] {
			out = append(out, p)
		}
	}
	return out
}
