package catalog

import (
	"context"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, relationTools) }

// The Refs of the relation tools: each tool is declared through its Ref, which names
// it with its input and output types, so that the compiler checks its handler and
// rules.
var (
	createRelations         = tool.NewRef[relationsIn, *createdRelationsOut]("create_relations")
	deleteRelations         = tool.NewRef[relationsIn, *deletedRelationsOut]("delete_relations")
	findRelations           = tool.NewRef[findRelationsIn, *foundRelationsOut]("find_relations")
	garbageCollectRelations = tool.NewRef[gcRelationsIn, *gcOut]("garbage_collect_relations")
)

// relationTools declares the relation family (seed 002): typed edges stored in the
// front matter of the note they start from.
func relationTools(e *env) []*tool.Tool {
	return []*tool.Tool{
		createRelations.New(tool.Write, desc("create_relations"), e.createRelations),
		deleteRelations.New(tool.Destructive, desc("delete_relations"), e.deleteRelations),
		findRelations.New(tool.ReadOnly, desc("find_relations"), e.findRelations),
		garbageCollectRelations.New(tool.Destructive, desc("garbage_collect_relations"), e.garbageCollectRelations,
			tool.DryRun(gcRelationsIn.dryRun)),
	}
}

type relationsIn struct {
	Relations []relationSpec `json:"relations" jsonschema:"the relations, each {from, to, type}"`
	tool.LibraryArg
}

// relationBatch is a validated batch of relations, grouped by the note they start
// from, in the order of first appearance.
type relationBatch struct {
	order    []vpath.Path
	byNote   map[vpath.Path][]relationOut
	warnings []string
	failed   int
	done     int // the relations created or deleted
	firstErr *tool.Result
}

// newRelationBatch validates every relation and resolves its from note; a relation
// that fails is reported in the warnings and left out.
func newRelationBatch(l lib, rels []relationSpec) (*relationBatch, *tool.Result) {
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
// first failure when nothing was done, partial when some items failed. The output
// holds the relations done.
func (b *relationBatch) outcome(verb string) tool.Result {
	msg := fmt.Sprintf("%s %d relation(s)", verb, b.done)
	switch {
	case b.failed > 0 && b.done == 0 && b.firstErr != nil:
		r := *b.firstErr
		r.Warnings = b.warnings
		return r
	case b.failed > 0:
		return tool.Partial(msg+fmt.Sprintf("; %d failed, see the warnings", b.failed), b.warnings...)
	}
	r := tool.OK(msg)
	r.Warnings = b.warnings
	return r
}

// createdRelationsOut is the output of create_relations.
type createdRelationsOut struct {
	CreatedRelations []relationOut `json:"created_relations"`
}

// deletedRelationsOut is the output of delete_relations.
type deletedRelationsOut struct {
	DeletedRelations []relationOut `json:"deleted_relations"`
}

func (e *env) createRelations(ctx context.Context, call *tool.Call, in relationsIn) (tool.Result, *createdRelationsOut, error) {
	l, b, fail, err := e.relationBatchFor(ctx, call, in)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	g := l.Graph()
	st := readLinkStyle(l.Library)
	if st.problem != "" {
		b.warnings = append(b.warnings, st.problem)
	}
	created, fail, err := b.editEach(ctx, call, l, "create_relations", func(from vpath.Path, seq *yaml.Node) []relationOut {
		var added []relationOut
		for _, r := range b.byNote[from] {
			if hasRelation(g, from, seq, r) {
				b.warnings = append(b.warnings, fmt.Sprintf("%s already has %q → %s; skipped", r.From, r.Type, r.To))
				continue
			}
			seq.Content = append(seq.Content, relationItem(r.Type, st.relationTarget(g, from, r.To)))
			added = append(added, r)
		}
		return added
	})
	if err != nil || fail != nil {
		return deref(fail), nil, err
	}
	for _, r := range created {
		if _, ok := g.Resolve(vpath.Path(r.From+".md"), r.To); !ok {
			b.warnings = append(b.warnings, fmt.Sprintf("%s does not exist yet: the relation from %s dangles until it is created", r.To, r.From))
		}
	}
	b.done = len(created)
	return b.outcome("created"), &createdRelationsOut{CreatedRelations: created}, nil
}

// relationBatchFor opens the library of a call and groups its relations by note; fail
// is the answer when either is refused.
func (e *env) relationBatchFor(ctx context.Context, call *tool.Call, in relationsIn) (lib, *relationBatch, *tool.Result, error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return lib{}, nil, fail, err
	}
	b, fail := newRelationBatch(l, in.Relations)
	return l, b, fail, nil
}

// editEach runs edit on the relations list of every note of the batch, in order, and
// writes the notes it changed as one all-or-nothing batch. edit returns the relations
// it changed in that note (none: the note is left as it is). A note that cannot be
// edited counts its relations as failed, with its reason in the warnings. fail is the
// answer when the write was refused (a note changed meanwhile); nothing was written then.
func (b *relationBatch) editEach(ctx context.Context, call *tool.Call, l lib, op string,
	edit func(from vpath.Path, seq *yaml.Node) []relationOut) (done []relationOut, fail *tool.Result, err error) {
	failed, warnings, firstErr := b.failed, b.warnings, b.firstErr
	var changed []relationOut // of the note being rewritten
	rw := relRewrite{
		start: func() {
			b.failed, b.warnings, b.firstErr = failed, warnings[:len(warnings):len(warnings)], firstErr
			done = nil
		},
		edit: func(from vpath.Path, seq *yaml.Node) bool {
			changed = edit(from, seq)
			return len(changed) > 0
		},
		wrote: func(vpath.Path) { done = append(done, changed...) },
		skip: func(from vpath.Path, why *tool.Result) {
			b.failed += len(b.byNote[from])
			b.warnings = append(b.warnings, why.Message)
			b.firstErr = why
		},
	}
	fail, err = rw.run(ctx, call, l.Library, op, b.order)
	return done, fail, err
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

func (e *env) deleteRelations(ctx context.Context, call *tool.Call, in relationsIn) (tool.Result, *deletedRelationsOut, error) {
	l, b, fail, err := e.relationBatchFor(ctx, call, in)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	g := l.Graph()
	deleted, fail, err := b.editEach(ctx, call, l, "delete_relations", func(from vpath.Path, seq *yaml.Node) []relationOut {
		var removed []relationOut
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
		return removed
	})
	if err != nil || fail != nil {
		return deref(fail), nil, err
	}
	if len(deleted) == 0 && b.firstErr == nil {
		r := tool.Fail(tool.CodeNoMatch, "none of the relations exists; find_relations lists the existing ones")
		r.Warnings = b.warnings
		return r, nil, nil
	}
	b.done = len(deleted)
	return b.outcome("deleted"), &deletedRelationsOut{DeletedRelations: deleted}, nil
}
