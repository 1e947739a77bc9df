package search

import (
	"context"
	"regexp/syntax"
	"slices"

	"github.com/memotree/memotree/backend/vpath"
)

// Candidates are the notes a pattern search must read.
type Candidates struct {
	// Notes are the notes whose content may match, in path order.
	Notes []vpath.Path
	// Others are the remaining notes, which cannot match by content (a search over
	// names still considers them), in path order.
	Others []vpath.Path
	// Narrowed reports whether the trigram filters excluded anything.
	Narrowed bool
}

// PatternCandidates applies pending changes and returns the notes whose content may
// match re, by the trigrams every match must contain. A regular expression that
// requires no trigram (".", "a|b", "x*") leaves every note a candidate.
func (ix *Index) PatternCandidates(ctx context.Context, re *syntax.Regexp) (Candidates, error) {
	if err := ix.Refresh(ctx); err != nil {
		return Candidates{}, err
	}
	q := RequiredTrigrams(re)
	alts := literalAlternatives(re)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	byWords, haveWords := ix.x.wordCandidates(alts)
	c := Candidates{Others: make([]vpath.Path, 0, ix.x.live)}
	for id, d := range ix.x.docs {
		if !d.alive {
			continue
		}
		if (!haveWords || byWords[id]) && ix.x.grams.mayMatch(uint32(id), q) {
			c.Notes = append(c.Notes, d.path)
		} else {
			c.Others = append(c.Others, d.path)
		}
	}
	c.Narrowed = len(c.Others) > 0
	slices.Sort(c.Notes)
	slices.Sort(c.Others)
	return c, nil
}
