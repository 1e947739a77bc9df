package search

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/note"
)

// Mode is how a ranked search (LibraryIndex.Rank) finds and orders its notes.
type Mode int

const (
	// FullText ranks the notes holding the query's words (BM25F: Index.Search).
	FullText Mode = iota
	// Semantic ranks the notes nearest the query in meaning (Index.SemanticSearch).
	Semantic
	// Hybrid fuses the full-text and the semantic ranking (Index.HybridSearch).
	Hybrid
)

// Ranked is the answer of a ranked search.
type Ranked struct {
	// Hits are the notes found, best first.
	Hits []Hit
	// Pending counts the notes a semantic or hybrid answer left out because they are
	// not embedded yet.
	Pending int
	// StagedLeftOut counts the notes a transaction wrote that a semantic or hybrid
	// answer left out: their embeddings are made once the transaction is applied.
	StagedLeftOut int
}

// embedWait is how long a semantic search waits for notes still being embedded
// before it answers without them.
const embedWait = 5 * time.Second

// Rank runs one ranked search, with the transaction's writes laid over the index.
// A semantic or hybrid search first waits a few seconds for the notes still being
// embedded, then answers without those still left (Ranked.Pending).
func (li LibraryIndex) Rank(ctx context.Context, mode Mode, r Request) (Ranked, error) {
	switch mode {
	case Semantic, Hybrid:
		wctx, cancel := context.WithTimeout(ctx, embedWait)
		err := li.ix.WaitEmbedded(wctx)
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return Ranked{}, err
		}
		var (
			hits []Hit
			info SemanticInfo
		)
		if mode == Semantic {
			hits, info, err = li.ix.SemanticSearch(ctx, r)
		} else {
			hits, info, err = li.ix.HybridSearch(ctx, r)
		}
		hits, staged := li.over.semantic(hits)
		return Ranked{Hits: hits, Pending: info.Pending, StagedLeftOut: staged}, err
	}
	hits, err := li.over.search(ctx, li.ix, r)
	return Ranked{Hits: hits}, err
}

// RelatedHit is a note a relation search found: a match, or a note linked to or from
// one.
type RelatedHit struct {
	Hit
	// Via names the match a note was reached from; empty for a match.
	Via string
}

// Related follows the graph one step from each match: the notes they link to or are
// linked from join the matches, each naming the match it came by and scored half as
// much (the best of its matches when several lead to it), those the request's
// filters refuse left out. The answer is the best limit of them all, best first.
func Related(g *graph.Graph, hits []Hit, req Request, limit int) []RelatedHit {
	at := map[string]int{}
	out := make([]RelatedHit, len(hits))
	for i, h := range hits {
		out[i] = RelatedHit{Hit: h}
		at[h.Path.Name()] = i
	}
	for _, h := range hits {
		p, err := g.Lookup(h.Path.Name())
		if err != nil {
			continue
		}
		for _, n := range g.Neighbors(p, 1, nil) {
			name, score := n.Name(), h.Score/2
			if i, seen := at[name]; seen {
				if out[i].Via != "" && score > out[i].Score {
					out[i].Score, out[i].Via = score, h.Path.Name()
				}
				continue
			}
			nt, ok := g.Note(n)
			if !n.IsNote() || !ok || !req.Admits(n, nt.EntityType, tagNames(nt)) {
				continue
			}
			at[name] = len(out)
			out = append(out, RelatedHit{Hit: Hit{Path: n, Score: score, EntityType: nt.EntityType}, Via: h.Path.Name()})
		}
	}
	slices.SortStableFunc(out, func(a, b RelatedHit) int { return cmp.Compare(b.Score, a.Score) })
	return out[:min(limit, len(out))]
}

// tagNames lists the names of a note's tags.
func tagNames(n *note.Note) []string {
	out := make([]string, len(n.Tags))
	for i, t := range n.Tags {
		out[i] = t.Name
	}
	return out
}
