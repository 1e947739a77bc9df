package search

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/vpath"
)

// SearchOver answers r as Search does over the index with notes laid over it that it
// does not hold (a transaction's writes, not yet on disk): the notes of texts (path →
// content) in place of the index's versions of them, and removed left out. The
// index's hits for the other notes come as Search gives them; each note of texts is
// analysed as the index would analyse it and scored by the same BM25F with the
// index's statistics, phrases checked and a snippet made from its text; both are
// merged by score. A transaction writes a few notes: each is analysed per search.
func (ix *Index) SearchOver(ctx context.Context, r Request, texts map[vpath.Path][]byte, removed func(vpath.Path) bool) ([]Hit, error) {
	if len(texts) == 0 && removed == nil {
		return ix.Search(ctx, r)
	}
	if r.Limit <= 0 {
		r.Limit = 20
	}
	within := r.Within
	base := r
	base.Within = func(p vpath.Path) bool {
		if _, over := texts[p]; over || removed != nil && removed(p) {
			return false
		}
		return within == nil || within(p)
	}
	hits, err := ix.Search(ctx, base)
	if err != nil {
		return nil, err
	}
	clauses := parseQuery(r.Query)
	preview := r.PreviewLength
	if preview <= 0 {
		preview = defaultPreview
	}
	for p, data := range texts {
		if within != nil && !within(p) {
			continue
		}
		h, ok := ix.scoreText(p, data, clauses, r)
		if !ok {
			continue
		}
		spans := spansOf(data, clauses)
		if hasPhrase(clauses) && !phrasesFound(spans, clauses) && !phrasesInName(h, clauses) {
			continue
		}
		if !r.NoSnippet {
			h.Snippet = makeSnippet(data, spans, preview)
		}
		hits = append(hits, h)
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(string(a.Path), string(b.Path))
	})
	return hits[:min(len(hits), r.Limit)], nil
}

// scoreText scores one note the index does not hold against the clauses, with the
// index's statistics, as rank scores the notes it holds; ok is false when the note
// does not match (or the request's filters refuse it).
func (ix *Index) scoreText(p vpath.Path, data []byte, clauses []clause, r Request) (Hit, bool) {
	an := analyzerPool.Get().(*analyzer)
	a := an.analyze(p, data)
	analyzerPool.Put(an)
	if !r.Admits(p, a.info.entityType, a.info.tags) {
		return Hit{}, false
	}
	tf := make(map[string]float64, len(a.terms))
	for _, t := range a.terms {
		tf[t.term] = float64(t.tf)
	}
	named := map[string]bool{}
	for _, t := range a.named {
		named[t] = true
	}
	ix.mu.RLock()
	x := ix.x
	live := float64(x.live + 1) // the note among them
	avg := (x.total + float64(a.info.length)) / live
	df := func(term string) float64 {
		d := 1.0 // the note itself holds it
		if id, ok := x.termID(term); ok {
			d += float64(len(x.list(int(id))))
		}
		return d
	}
	var score, nameScore float64
	matched, positive, nameHits := 0, 0, 0
	for _, c := range clauses {
		if !c.exclude {
			positive++
		}
		found, idfSum := 0, 0.0
		nameFound := true
		for i, t := range c.terms {
			terms := []string{t}
			if c.prefix && i == len(c.terms)-1 {
				terms = prefixed(tf, t)
			}
			hit := false
			for _, term := range terms {
				idf := math.Log(1 + (live-df(term)+0.5)/(df(term)+0.5))
				idfSum += idf / float64(len(c.terms)*len(terms))
				f, ok := tf[term]
				if !ok {
					continue
				}
				hit = true
				score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(a.info.length)/avg))
			}
			if hit {
				found++
			}
			if !slices.ContainsFunc(terms, func(term string) bool { return named[term] }) {
				nameFound = false
			}
		}
		if c.exclude {
			if found > 0 {
				ix.mu.RUnlock()
				return Hit{}, false
			}
			continue
		}
		all := c.phrase || len(c.terms) > 1 && isCJKWord(c.words[0])
		if found == 0 || all && found < len(c.terms) {
			if all && found > 0 {
				ix.mu.RUnlock()
				return Hit{}, false // a phrase or CJK run needs all its terms
			}
			continue
		}
		matched++
		if nameFound && len(c.terms) > 0 {
			nameScore += idfSum
			nameHits++
		}
	}
	ix.mu.RUnlock()
	if score <= 0 || matched == 0 {
		return Hit{}, false
	}
	coord := float64(matched) / float64(positive)
	bonus := 1.5 * nameScore
	if nameHits == positive {
		bonus *= 2 // the name holds the whole query
	}
	final := (score + bonus) * coord * coord
	return Hit{Path: p, Title: a.info.title, Score: round(final), EntityType: a.info.entityType, Tags: a.info.tags, Aliases: a.info.aliases}, true
}

// prefixed returns the note's terms that start with prefix, at most
// prefixExpansion of them.
func prefixed(tf map[string]float64, prefix string) []string {
	var out []string
	for t := range tf {
		if strings.HasPrefix(t, prefix) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), prefixExpansion)]
}
