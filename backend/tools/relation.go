package tools

import (
	"context"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, relationTools) }

// relationTools declares the relation family (seed 002): typed edges stored in the
// front matter of the note they start from.
func relationTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		tool.New("create_relations", tool.Write, desc("create_relations"), e.createRelations),
		tool.New("delete_relations", tool.Destructive, desc("delete_relations"), e.deleteRelations),
		tool.New("find_relations", tool.ReadOnly, desc("find_relations"), e.findRelations),
		tool.New("garbage_collect_relations", tool.Destructive, desc("garbage_collect_relations"), e.garbageCollectRelations),
	}
}

type relationsIn struct {
	Relations   []relationSpec `json:"relations" jsonschema:"the relations, each {from, to, type}"`
	LibraryName string         `json:"library_name,omitempty" jsonschema:"the library; the default one when absent"`
}

// relationBatch is a validated batch of relations, grouped by the note they start
// from, in the order of first appearance.
type relationBatch struct {
	order    []vpath.Path
	byNote   map[vpath.Path][]relationOut
	warnings []string
	failed   int
	firstErr *tool.Result
}

// newRelationBatch validates every relation and resolves its from note; a relation
// that fails is reported in the warnings and left out.
func newRelationBatch(l *library.Library, rels []relationSpec) (*relationBatch, *tool.Result) {
	if len(rels) == 0 {
		r := tool.Fail(tool.CodeInvalidArguments, "relations is empty: give at least one {from, to, type}")
		return nil, &r
	}
	if len(rels) > maxRelationsCall {
		r := tool.Fail(tool.CodeInvalidArguments, "%d relations in one call; the limit is %d, split the batch", len(rels), maxRelationsCall)
		return nil, &r
	}
	b := &relationBatch{byNote: map[vpath.Path][]relationOut{}}
	for i, r := range rels {
		to, typ, problem := checkRelationText(r)
		var fail *tool.Result
		var from vpath.Path
		if problem != "" {
			f := tool.Fail(tool.CodeInvalidArguments, "%s", problem)
			fail = &f
		} else {
			from, fail = lookup(l, clipLong(r.From))
		}
		if fail != nil {
			b.failed++
			b.warnings = append(b.warnings, fmt.Sprintf("relations[%d]: %s", i, fail.Message))
			if b.firstErr == nil {
				b.firstErr = fail
			}
			continue
		}
		if _, ok := b.byNote[from]; !ok {
			b.order = append(b.order, from)
		}
		b.byNote[from] = append(b.byNote[from], relationOut{From: from.Name(), To: to, Type: typ})
	}
	return b, nil
}

// clipLong keeps a hostile name from being echoed at full length.
func clipLong(s string) string {
	if len(s) > vpath.MaxLen {
		return s[:vpath.MaxLen]
	}
	return s
}

// outcome turns a batch's successes, warnings and failures into the result: the
// first failure when nothing was done, partial when some items failed.
func (b *relationBatch) outcome(key, verb string, done []relationOut) tool.Result {
	data := map[string]any{key: done}
	msg := fmt.Sprintf("%s %d relation(s)", verb, len(done))
	switch {
	case b.failed > 0 && len(done) == 0 && b.firstErr != nil:
		r := *b.firstErr
		r.Warnings = b.warnings
		return r
	case b.failed > 0:
		return tool.Partial(msg+fmt.Sprintf("; %d failed, see the warnings", b.failed), data, b.warnings...)
	}
	r := tool.OK(msg, data)
	r.Warnings = b.warnings
	return r
}

func (e *env) createRelations(ctx context.Context, call *tool.Call, in relationsIn) (tool.Result, error) {
	l, fail := e.library(call)
	if fail != nil {
		return *fail, nil
	}
	b, fail := newRelationBatch(l, in.Relations)
	if fail != nil {
		return *fail, nil
	}
	g := l.Graph()
	var created []relationOut
	w := &relWrites{}
	for _, from := range b.order {
		var added []relationOut
		_, fail, err := editRelations(l, from, w, func(seq *yaml.Node) bool {
			added = nil
			for _, r := range b.byNote[from] {
				if hasRelation(g, from, seq, r) {
					b.warnings = append(b.warnings, fmt.Sprintf("%s already has %q → %s; skipped", r.From, r.Type, r.To))
					continue
				}
				seq.Content = append(seq.Content, relationItem(r.Type, r.To))
				added = append(added, r)
			}
			return len(added) > 0
		})
		if err != nil {
			return tool.Result{}, err
		}
		if fail != nil {
			b.failed += len(b.byNote[from])
			b.warnings = append(b.warnings, fail.Message)
			b.firstErr = fail
			continue
		}
		created = append(created, added...)
	}
	if r, err := w.commit(ctx, call, l, "create_relations"); err != nil {
		return tool.Result{}, err
	} else if r != nil {
		return *r, nil
	}
	for _, r := range created {
		if _, ok := g.Resolve(vpath.Path(r.From+".md"), r.To); !ok {
			b.warnings = append(b.warnings, fmt.Sprintf("%s does not exist yet: the relation from %s dangles until it is created", r.To, r.From))
		}
	}
	return b.outcome("created_relations", "created", created), nil
}

// hasRelation reports whether seq already holds r (same type ignoring case, same
// target).
func hasRelation(g *graph.Graph, from vpath.Path, seq *yaml.Node, r relationOut) bool {
	for _, item := range seq.Content {
		typ, to := itemFields(item)
		if strings.EqualFold(typ, r.Type) && targetsEqual(g, from, to, r.To) {
			return true
		}
	}
	return false
}

// targetsEqual reports whether two relation targets written in the note at from name
// the same note: equal ignoring case, or resolving to the same file.
func targetsEqual(g *graph.Graph, from vpath.Path, a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	pa, oka := g.Resolve(from, a)
	pb, okb := g.Resolve(from, b)
	return oka && okb && pa == pb
}

func (e *env) deleteRelations(ctx context.Context, call *tool.Call, in relationsIn) (tool.Result, error) {
	l, fail := e.library(call)
	if fail != nil {
		return *fail, nil
	}
	b, fail := newRelationBatch(l, in.Relations)
	if fail != nil {
		return *fail, nil
	}
	g := l.Graph()
	var deleted []relationOut
	w := &relWrites{}
	for _, from := range b.order {
		var removed []relationOut
		_, fail, err := editRelations(l, from, w, func(seq *yaml.Node) bool {
			removed = nil
			for _, r := range b.byNote[from] {
				kept := seq.Content[:0:0]
				hit := false
				for _, item := range seq.Content {
					typ, to := itemFields(item)
					if strings.EqualFold(typ, r.Type) && targetsEqual(g, from, to, r.To) {
						hit = true
						continue
					}
					kept = append(kept, item)
				}
				seq.Content = kept
				if hit {
					removed = append(removed, r)
				} else {
					b.failed++
					b.warnings = append(b.warnings, fmt.Sprintf("%s has no %q relation to %s; find_relations(from=%q) lists its relations", r.From, r.Type, r.To, r.From))
				}
			}
			return len(removed) > 0
		})
		if err != nil {
			return tool.Result{}, err
		}
		if fail != nil {
			b.failed += len(b.byNote[from])
			b.warnings = append(b.warnings, fail.Message)
			b.firstErr = fail
			continue
		}
		deleted = append(deleted, removed...)
	}
	if r, err := w.commit(ctx, call, l, "delete_relations"); err != nil {
		return tool.Result{}, err
	} else if r != nil {
		return *r, nil
	}
	if len(deleted) == 0 && b.firstErr == nil {
		r := tool.Fail(tool.CodeNoMatch, "none of the relations exists; find_relations lists the existing ones")
		r.Warnings = b.warnings
		return r, nil
	}
	return b.outcome("deleted_relations", "deleted", deleted), nil
}
