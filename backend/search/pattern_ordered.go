package search

import (
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"sync/atomic"
	"time"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// A one-shot process (a command that searches once and exits) has no list of the
// notes in memory, and its index is not known to match the files until every note is
// statted: 100k notes take 150 ms to list and 400 ms to stat before the first is
// read. A page, which wants only the first notes with matches in path order, walks
// the folders in that order instead and reads the notes as it reaches them, stopping
// once the page is known, as ripgrep stops at its first files. The persisted index,
// when there is one, still spares the reading: a note whose size and time are those
// it was indexed with, and whose trigram filter rules the pattern out, is matched by
// name only, so a rare pattern costs a stat per note, not a read.

// orderedBatch is how many notes a page lists before it reads them, at first; it
// doubles up to orderedBatchMax, so that a page found among the first notes reads
// few more than it needs while one found far away reads in large batches.
const (
	orderedBatch    = 32
	orderedBatchMax = 2048
)

// orderedPages says whether a content search may answer its page by walking the
// vault in path order (orderedPage): a page, not a count, of a library of its own
// (not a folder of a larger one) with no transaction staged, whose notes were never
// listed in this process and whose index is not open in it.
func (e *Engine) orderedPages(l *library.Library, q ContentQuery) bool {
	return !q.Summary && !l.Scanned() && l.Parent() == l && overlayOf(l).empty() && !e.indexes.has(l)
}

// orderedPage answers a page of q over l by walking its folders in path order,
// reading the notes in batches as it reaches them, and stopping once the page is
// known (pageCollector).
func (e *Engine) orderedPage(ctx context.Context, l *library.Library, q ContentQuery, timeout time.Duration) (ContentPage, error) {
	var (
		saved   *postings // the persisted index, once loaded; nil when there is none
		grams   [][]uint32
		tried   bool        // the index was asked for
		statted atomic.Bool // the walk stats the notes, for the index to vouch for them
	)
	if tree, err := syntax.Parse(q.Pattern.re.String(), syntax.Perl); err == nil {
		grams = RequiredTrigrams(tree)
	}
	// The index is loaded (and the notes statted) only once the first batch has not
	// filled the page: a common pattern's page is found among the first notes, sooner
	// than the index of 100k notes opens.
	useIndex := func() {
		if grams == nil || tried {
			return
		}
		tried = true
		if x, err := load(l.State()); err == nil {
			saved = x
			statted.Store(true)
		}
	}
	want := pageWant{offset: q.Offset, limit: q.Limit, lines: q.MaxLines}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sctx, stop := context.WithCancel(tctx) // stopped once the page is known
	defer stop()
	pc := newPageCollector(0, want, stop)
	corpus := diskCorpus{l.Vault()}
	var (
		batch    []vpath.Path
		nameOnly []bool
		problems []string
		searched int
		size     = orderedBatch
	)
	flush := func() error {
		pc.grow(len(batch))
		p, err := collectPage(sctx, corpus, pc, searched, batch, nameOnly, q)
		problems = append(problems, p...)
		searched += len(batch)
		batch, nameOnly = batch[:0], nameOnly[:0]
		size = min(2*size, orderedBatchMax)
		if err == nil && !pc.complete() {
			useIndex()
		}
		return err
	}
	var readErr error
	walkErr := l.Vault().WalkOrdered(sctx, statted.Load, func(f vault.FileInfo) bool {
		p := f.Path
		if f.IsDir || !p.IsNote() || p.Ignored() || q.Names != nil && !q.Names.MatchesName(p) {
			return true
		}
		batch, nameOnly = append(batch, p), append(nameOnly, saved.rulesOut(f, grams))
		if len(batch) < size {
			return true
		}
		readErr = flush()
		return readErr == nil
	})
	if walkErr == nil && readErr == nil && len(batch) > 0 {
		readErr = flush()
	}
	err := errors.Join(walkErr, readErr)
	complete := pc.complete()
	if complete || ctx.Err() == nil && tctx.Err() == nil && err != nil && errors.Is(err, context.Canceled) {
		err = nil // stopped because the page is complete
	}
	out := ContentPage{Searched: searched, Problems: problems}
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return ContentPage{}, fmt.Errorf("search %s: %w", l.Name(), err)
		}
		out.TimedOut = true
	}
	page, total, more := pc.info()
	return finishPage(out, foundPage{page, total}, more, q, want), nil
}

// rulesOut reports whether the persisted index x (nil: none) shows that the note f
// (statted) cannot match a pattern requiring grams: it holds the note as it is on
// disk, by size and time, and the note's trigram filter lacks every alternative.
func (x *postings) rulesOut(f vault.FileInfo, grams [][]uint32) bool {
	if x == nil || grams == nil || f.ModTime.IsZero() {
		return false
	}
	id, ok := x.lookup(f.Path)
	if !ok {
		return false
	}
	size, mtime, _ := x.stampOf(id)
	return size == f.Size && mtime == f.ModTime.UnixNano() && !mayMatch(x.filter(id), grams)
}
