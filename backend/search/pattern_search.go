package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp/syntax"
	"slices"
	"time"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vpath"
)

// NameMatch is a note whose name, or one of whose aliases, a name pattern matches.
type NameMatch struct {
	Path vpath.Path
	// Alias is the alias that matched, empty when the name did.
	Alias string
}

// MatchNames returns the notes of g, in path order, whose name p matches
// (Pattern.MatchesName) or, failing that, one of whose aliases it finds.
func MatchNames(g *graph.Graph, p *Pattern) []NameMatch {
	var out []NameMatch
	for _, path := range g.Notes() {
		if p.MatchesName(path) {
			out = append(out, NameMatch{Path: path})
			continue
		}
		if n, ok := g.Note(path); ok {
			for _, a := range n.Aliases {
				if p.re.MatchString(a) {
					out = append(out, NameMatch{Path: path, Alias: a})
					break
				}
			}
		}
	}
	return out
}

// ContentQuery is one search of the notes' text: what to look for, where, in which
// parts, and which page of the notes with matches to answer.
type ContentQuery struct {
	// Pattern is what to look for (CompilePattern).
	Pattern *Pattern
	// Names keeps the notes whose names it matches (CompileNamePattern); nil: every
	// note.
	Names *Pattern
	// FrontMatter searches the front matter too, apart from the body.
	FrontMatter bool
	// Name matches the notes' names too.
	Name bool
	// Offset and Limit are the page, in notes with matches; MaxLines is the most
	// matching lines it shows, over all its notes.
	Offset, Limit, MaxLines int
	// Summary counts every note with matches, each searched up to its first matching
	// line, and keeps no page.
	Summary bool
}

// ContentPage is the answer of a content search (Engine.Contents).
type ContentPage struct {
	// Notes are the page's notes with matches, in path order, with their lines: none
	// for a summary.
	Notes []NoteMatches
	// Total counts the notes with matches: every one, unless the search stopped once
	// its page was full (NextOffset) or at its time limit (TimedOut).
	Total int
	// NextOffset is the offset of the next page, or 0 when no note with matches is
	// known to follow this one.
	NextOffset int
	// Searched is the number of notes the search had to consider.
	Searched int
	// Cut says lines were dropped to show at most MaxLines.
	Cut bool
	// TimedOut says the search stopped at its time limit: what was found by then is
	// answered.
	TimedOut bool
	// Problems name the notes that could not be read.
	Problems []string
}

// Contents runs q over the notes of l, reading them on several goroutines, and
// answers its page, stopping once it is known (see pageCollector). The library's
// index narrows the notes to read to those that can match where it can; otherwise a
// library whose graph is loaded reads them through its text cache, and one whose
// graph is not (a one-shot command) lists its folder and reads them from disk. The
// time limit starts once the notes to read are known: building the index (a first
// search) is not searching. An error means the library could not be searched.
func (e *Engine) Contents(ctx context.Context, l *library.Library, q ContentQuery, timeout time.Duration) (ContentPage, error) {
	if e.orderedPages(l, q) {
		return e.orderedPage(ctx, l, q, timeout)
	}
	var (
		paths    []vpath.Path
		nameOnly []bool // the note cannot match by content: its name alone is matched
		corpus   textCorpus
	)
	if c, ok := e.patternCandidates(ctx, l, q); ok {
		// The trigram filters ruled out the notes in c.Others: only the candidates
		// are read (from disk: they are few), the others can match by name only.
		corpus = diskCorpus{l.Vault()}
		paths = c.Notes
		if q.Name {
			paths, nameOnly = mergeNameOnly(c.Notes, c.Others)
		}
	} else {
		var err error
		if paths, err = candidateNotes(ctx, l, q.Names); err != nil {
			return ContentPage{}, err
		}
		corpus = diskCorpus{l.Vault()}
		if l.Scanned() && l.Parent() == l {
			corpus = e.caches.corpus(l) // the graph says which cached texts are current
		}
	}
	want := pageWant{offset: q.Offset, limit: q.Limit, lines: q.MaxLines}
	if q.Summary {
		// A summary counts every note with matches, each up to its first line.
		want = pageWant{limit: len(paths) + 1, summary: true}
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	page, more, problems, err := searchPage(sctx, corpus, paths, nameOnly, q, want)
	out := ContentPage{Searched: len(paths), Problems: problems, TimedOut: err != nil}
	if err != nil && (ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded)) {
		return ContentPage{}, fmt.Errorf("search %s: %w", l.Name(), err)
	}
	return finishPage(out, page, more, q, want), nil
}

// finishPage puts what a search found into out: the total, the next page's offset,
// and the page's notes with their lines (at most q.MaxLines) rendered.
func finishPage(out ContentPage, page foundPage, more bool, q ContentQuery, want pageWant) ContentPage {
	out.Total = page.total
	if more {
		out.NextOffset = want.offset + len(page.notes)
	}
	if out.Total == 0 {
		out.Notes = page.notes[:0:0]
		return out
	}
	if q.Summary {
		page.notes = page.notes[:0:0]
	}
	out.Notes, out.Cut = capMatches(page.notes, q.MaxLines)
	for i := range out.Notes {
		renderAll(out.Notes[i].Matches)
	}
	return out
}

// denseCandidates is the share of the notes a pattern may match above which a search
// that would first wait for the index to check every note's size and time reads
// every note instead (Index.NarrowCandidates).
const denseCandidates = 0.5

// patternCandidates asks the library's index which notes may match q's pattern; ok
// is false when the index cannot narrow the search (the pattern requires no
// trigram, or most notes may match it while the index is still being checked
// against the files) or is unavailable, and the caller reads every note.
func (e *Engine) patternCandidates(ctx context.Context, l *library.Library, q ContentQuery) (Candidates, bool) {
	tree, err := syntax.Parse(q.Pattern.re.String(), syntax.Perl)
	if err != nil || RequiredTrigrams(tree) == nil {
		return Candidates{}, false
	}
	ix, err := e.indexes.get(ctx, l)
	if err != nil {
		return Candidates{}, false
	}
	c, ok, err := ix.NarrowCandidates(ctx, tree, denseCandidates, !q.Summary)
	if err != nil || !ok {
		return Candidates{}, false
	}
	c = overlayOf(l).candidates(c)
	if q.Names != nil {
		c.Notes = slices.DeleteFunc(c.Notes, func(p vpath.Path) bool { return !q.Names.MatchesName(p) })
		c.Others = slices.DeleteFunc(c.Others, func(p vpath.Path) bool { return !q.Names.MatchesName(p) })
	}
	return c, true
}

// mergeNameOnly merges the candidates with the other notes, both in path order, and
// marks the others as matchable by name only.
func mergeNameOnly(cands, others []vpath.Path) ([]vpath.Path, []bool) {
	paths := make([]vpath.Path, 0, len(cands)+len(others))
	nameOnly := make([]bool, 0, cap(paths))
	i, j := 0, 0
	for i < len(cands) || j < len(others) {
		if j >= len(others) || i < len(cands) && cands[i] < others[j] {
			paths, nameOnly = append(paths, cands[i]), append(nameOnly, false)
			i++
		} else {
			paths, nameOnly = append(paths, others[j]), append(nameOnly, true)
			j++
		}
	}
	return paths, nameOnly
}

// candidateNotes lists the notes whose names match names (all when nil), in path
// order. A library whose graph is not loaded yet (a one-shot command) lists its
// folder instead of parsing every note.
func candidateNotes(ctx context.Context, l *library.Library, names *Pattern) ([]vpath.Path, error) {
	all, listed := listNotes(ctx, l)
	if !listed {
		g, err := l.Graph(ctx) // loaded, or the folder cannot be listed: the scan says why
		if err != nil {
			return nil, fmt.Errorf("read library %s: %w", l.Name(), err)
		}
		all = g.Notes()
	}
	if names == nil {
		return all, nil
	}
	out := all[:0]
	for _, p := range all {
		if names.MatchesName(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// listNotes lists the notes of a library whose graph is not loaded from its folder,
// in path order; listed is false when the graph is loaded or the folder cannot be
// listed.
func listNotes(ctx context.Context, l *library.Library) (notes []vpath.Path, listed bool) {
	if l.Scanned() {
		return nil, false
	}
	files, err := l.Vault().WalkPaths(ctx)
	if err != nil {
		return nil, false
	}
	for _, f := range files {
		if !f.IsDir && f.Path.IsNote() && !f.Path.Ignored() {
			notes = append(notes, f.Path)
		}
	}
	slices.Sort(notes)
	return notes, true
}

// foundPage is the page a search collected and the notes with matches it counted.
type foundPage struct {
	notes []NoteMatches
	total int
}

// searchPage runs q over the notes at paths (in path order; those marked nameOnly
// are matched by name without being read), in parallel, and returns the page want
// asks for, stopping once it is known (see pageCollector); more says a note with
// matches follows the page.
func searchPage(ctx context.Context, c textCorpus, paths []vpath.Path, nameOnly []bool, q ContentQuery, want pageWant) (foundPage, bool, []string, error) {
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	pc := newPageCollector(len(paths), want, stop)
	problems, err := collectPage(sctx, c, pc, 0, paths, nameOnly, q)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.Canceled) {
		err = nil // stopped because the page is complete
	}
	page, total, more := pc.info()
	return foundPage{page, total}, more, problems, err
}

// collectPage runs q over the notes at paths, the items from base on of pc, in
// parallel: those marked nameOnly are matched by name without being read.
func collectPage(ctx context.Context, c textCorpus, pc *pageCollector, base int, paths []vpath.Path, nameOnly []bool, q ContentQuery) ([]string, error) {
	read, at := paths, []int(nil)
	if nameOnly != nil {
		read = nil
		for i, p := range paths {
			if nameOnly[i] {
				pc.done(base+i, matchNote(q, p, nil))
				continue
			}
			read, at = append(read, p), append(at, i)
		}
	}
	return c.scan(ctx, read, func([]byte) bool { return true }, func(j int, data []byte) {
		i := j
		if at != nil {
			i = at[j]
		}
		r := matchNote(q, paths[i], data)
		if r != nil {
			r.own(data) // data is the corpus's only during this call
		}
		pc.done(base+i, r)
	})
}

// matchNote searches one note; nil when nothing matches. A count (q.Summary) stops
// at the note's first matching line and keeps no lines.
func matchNote(q ContentQuery, p vpath.Path, data []byte) *NoteMatches {
	limit := maxCountPerNote
	if q.Summary {
		limit = 1
	}
	nm := NoteMatches{EntityName: p.Name(), FilePath: string(p)}
	if q.Name && q.Pattern.re.MatchString(p.Name()) {
		nm.Matches = append(nm.Matches, LineMatch{MatchedIn: "name", MatchedText: p.Name()})
		nm.MatchCount++
	}
	body := frontMatterEnd(data)
	var vm validMemo
	if q.FrontMatter && body > 0 && !(q.Summary && nm.MatchCount > 0) && q.Pattern.regionMatches(data, 0, body, &vm) {
		m, n := findLinesUpTo(q.Pattern, data, 0, body, "frontmatter", limit, &vm)
		nm.Matches, nm.MatchCount = append(nm.Matches, m...), nm.MatchCount+n
	}
	where := ""
	if q.FrontMatter {
		where = "content"
	}
	if !(q.Summary && nm.MatchCount > 0) && q.Pattern.bodyMatches(data, body, len(data), q.Summary, &vm) {
		m, n := findLinesUpTo(q.Pattern, data, body, len(data), where, limit, &vm)
		nm.Matches, nm.MatchCount = append(nm.Matches, m...), nm.MatchCount+n
	}
	switch {
	case nm.MatchCount == 0:
		return nil
	case q.Summary:
		nm.Matches = nil // counted, never shown: data is not kept
	case len(nm.Matches) > maxLinesPerNote:
		nm.Matches = nm.Matches[:maxLinesPerNote]
	}
	return &nm
}

// own points the matches of nm at a copy of data, the note they were found in.
func (nm *NoteMatches) own(data []byte) {
	var clone []byte
	for k := range nm.Matches {
		if nm.Matches[k].data != nil {
			if clone == nil {
				clone = bytes.Clone(data)
			}
			nm.Matches[k].data = clone
		}
	}
}

// capMatches keeps at most max matching lines over the page, dropping whole notes'
// extra lines first; cut reports whether anything was dropped.
func capMatches(page []NoteMatches, maxLines int) ([]NoteMatches, bool) {
	out := make([]NoteMatches, 0, len(page))
	left, cut := maxLines, false
	for _, nm := range page {
		if left <= 0 {
			cut = true
			break
		}
		if len(nm.Matches) > left {
			nm.Matches, cut = slices.Clone(nm.Matches[:left]), true
		}
		left -= len(nm.Matches)
		out = append(out, nm)
	}
	return out, cut
}
