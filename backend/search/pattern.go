package search

import (
	"context"
	"fmt"
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
// requires no trigram (".", "a|b", "x*") leaves every note a candidate. After a
// deferred Open it narrows the candidates on the loaded index while the walk runs,
// then makes every note the walk found new or changed a candidate too.
func (ix *Index) PatternCandidates(ctx context.Context, re *syntax.Regexp) (Candidates, error) {
	ix.settleMu.Lock()
	return ix.settledCandidates(ctx, RequiredTrigrams(re), literalAlternatives(re), nil)
}

// settledCandidates is PatternCandidates for the trigrams q and the literal
// alternatives alts, called with settleMu held, which it releases; loaded, when set,
// are the candidates on the index as loaded, found already while the walk runs.
func (ix *Index) settledCandidates(ctx context.Context, q [][]uint32, alts [][]string, loaded *Candidates) (Candidates, error) {
	walking := ix.walking
	ix.walking = nil
	if walking == nil {
		ix.settleMu.Unlock()
		if err := ix.Refresh(ctx); err != nil {
			return Candidates{}, err
		}
		return ix.candidates(q, alts), nil
	}
	// Settling is ours: other callers wait on settleMu until the index is current.
	defer ix.settleMu.Unlock()
	defer ix.unsettled.Store(false) // a failure below leaves a rescan reported
	var c Candidates                // on the index as loaded, while the walk runs
	if loaded != nil {
		c = *loaded
	} else {
		c = ix.candidates(q, alts)
	}
	w := <-walking
	if w.err != nil {
		ix.Changed(nil, true)
		return Candidates{}, fmt.Errorf("search index: %w", w.err)
	}
	changed, gone := ix.diff(w.files)
	if _, err := ix.readAndApply(ctx, changed, gone, ix.opts.Progress); err != nil {
		ix.Changed(nil, true)
		return Candidates{}, err
	}
	if ix.version > 0 {
		if err := ix.save(true); err != nil {
			ix.Changed(nil, true) // what the walk found is in no file and in no report
			return Candidates{}, err
		}
	}
	// Changes reported through Changed meanwhile: applied, and their notes read.
	ix.pendMu.Lock()
	rescan := ix.rescan
	fresh := make([]vpath.Path, 0, len(changed)+len(ix.pending))
	for p := range ix.pending {
		fresh = append(fresh, p)
	}
	ix.pendMu.Unlock()
	if err := ix.refreshPending(ctx); err != nil {
		return Candidates{}, err
	}
	if rescan || len(fresh) > 0 {
		return ix.candidates(q, alts), nil // anything may have moved: start again
	}
	for _, f := range changed {
		fresh = append(fresh, f.Path)
	}
	if len(fresh) == 0 && len(gone) == 0 {
		return c, nil
	}
	drop := make(map[vpath.Path]bool, len(fresh)+len(gone))
	for _, p := range gone {
		drop[p] = true
	}
	for _, p := range fresh {
		drop[p] = true
	}
	keep := func(p vpath.Path) bool { return drop[p] }
	c.Notes = append(slices.DeleteFunc(c.Notes, keep), fresh...)
	c.Others = slices.DeleteFunc(c.Others, keep)
	slices.Sort(c.Notes)
	c.Narrowed = len(c.Others) > 0
	return c, nil
}

// NarrowCandidates is PatternCandidates for a caller that would rather read every
// note than wait for a deferred Open's walk when the index as loaded leaves more than
// share of the notes candidates (a common word, "foo|bar"): listing the folders and
// reading the notes costs less than statting every note and reading most of them,
// and a page that stops at its first notes reads few either way. ok is false then,
// and the walk is given up: the next query walks again.
func (ix *Index) NarrowCandidates(ctx context.Context, re *syntax.Regexp, share float64, page bool) (c Candidates, ok bool, err error) {
	q, alts := RequiredTrigrams(re), literalAlternatives(re)
	var loaded *Candidates
	ix.settleMu.Lock()
	if ix.walking != nil && ix.dense(q, share) {
		// The trigrams first, which cost little; the words when those leave many.
		// But a page, which stops at its first notes with matches, goes by the
		// trigrams alone when the dictionary is large: the words are checked by
		// scanning it (10k notes of names, 500k terms: 16 ms, as long as reading
		// hundreds of notes).
		give := page && ix.vocabulary() > pageWordCheckTerms
		if !give {
			c := ix.candidates(q, alts)
			give, loaded = c.share() > share, &c // kept: the scan of the words is not done twice
		}
		if give {
			ix.walking = nil
			ix.stopWalk()
			ix.unsettled.Store(false)
			ix.settleMu.Unlock()
			ix.Changed(nil, true) // what the walk would have found
			return Candidates{}, false, nil
		}
	}
	c, err = ix.settledCandidates(ctx, q, alts, loaded)
	return c, err == nil, err
}

// pageWordCheckTerms is the most terms whose dictionary a page checks a dense
// pattern's words against (NarrowCandidates; a variable for a test).
var pageWordCheckTerms = 100_000

// vocabulary is how many terms the index holds.
func (ix *Index) vocabulary() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.x.numTerms()
}

// share is the part of the notes that are candidates.
func (c Candidates) share() float64 {
	return float64(len(c.Notes)) / float64(max(1, len(c.Notes)+len(c.Others)))
}

// dense reports whether more than share of the live notes have every trigram of one
// alternative of q in their filters (the words, which take longer to check, only
// narrow further): it stops counting once it knows.
func (ix *Index) dense(q [][]uint32, share float64) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	x := ix.x
	need := int(share*float64(x.live)) + 1
	left := x.live
	for id := range uint32(x.n()) {
		if need <= 0 || need > left {
			break
		}
		if !x.alive(id) {
			continue
		}
		left--
		if mayMatch(x.filter(id), q) {
			need--
		}
	}
	return need <= 0
}

// candidates splits the live notes by whether the trigrams q and the words of the
// literal alternatives alts allow a match.
func (ix *Index) candidates(q [][]uint32, alts [][]string) Candidates {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	byWords, haveWords := ix.x.wordCandidates(alts)
	c := Candidates{Others: make([]vpath.Path, 0, ix.x.live)}
	for id := range uint32(ix.x.n()) {
		if !ix.x.alive(id) {
			continue
		}
		if (!haveWords || byWords[id]) && mayMatch(ix.x.filter(id), q) {
			c.Notes = append(c.Notes, ix.x.path(id))
		} else {
			c.Others = append(c.Others, ix.x.path(id))
		}
	}
	c.Narrowed = len(c.Others) > 0
	slices.Sort(c.Notes)
	slices.Sort(c.Others)
	return c
}
