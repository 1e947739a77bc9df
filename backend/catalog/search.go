package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"regexp/syntax"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, searchTools) }

// The Refs of the pattern search tools: each tool is declared through its Ref, which
// names it with its input and output types, so that the compiler checks its handler
// and rules.
var (
	searchInNames    = tool.NewRef[searchInNamesIn, *entityListOut[nameHit]]("search_in_names")
	searchInContents = tool.NewRef[searchInContentsIn, *contentOut]("search_in_contents")
	searchAnywhere   = tool.NewRef[searchAnywhereIn, *contentOut]("search_anywhere")
)

// searchTools declares the pattern searches (search_nodes comes with the full-text
// index).
func searchTools(e *env) []*tool.Tool {
	s := &searcher{env: e}
	return []*tool.Tool{
		searchInNames.New(tool.ReadOnly, desc("search_in_names"), s.searchInNames).Describe(tool.LibraryParam, librarySearched),
		searchInContents.New(tool.ReadOnly, desc("search_in_contents"), s.searchInContents).Describe(tool.LibraryParam, librarySearched),
		searchAnywhere.New(tool.ReadOnly, desc("search_anywhere"), s.searchAnywhere).Describe(tool.LibraryParam, librarySearched),
	}
}

// librarySearched describes library_name for the search tools.
const librarySearched = "the library to search; the default one when absent"

// searcher runs the pattern searches of one registry, with a text cache per library.
type searcher struct {
	*env
	caches searchCaches
}

type searchInNamesIn struct {
	EntityGlob string `json:"entity_glob" jsonschema:"a glob over entity names (*, **, ?, [...]), case-insensitive, or a /regular expression/"`
	tool.LibraryArg
	tool.Paging
}

type searchInContentsIn struct {
	ContentGlob string `json:"content_glob" jsonschema:"a glob matched anywhere in a line, case-insensitive, or a /regular expression/flags"`
	EntityGlob  string `json:"entity_glob,omitempty" jsonschema:"only search the notes whose names match this glob"`
	MaxResults  int    `json:"max_results,omitempty" jsonschema:"the most matching lines to show in this page (default 50, at most 500)"`
	tool.LibraryArg
	tool.Paging
}

type searchAnywhereIn struct {
	PatternGlob string `json:"pattern_glob" jsonschema:"a glob matched in names, front matter and text, case-insensitive, or a /regular expression/flags"`
	EntityGlob  string `json:"entity_glob,omitempty" jsonschema:"only search the notes whose names match this glob"`
	MaxResults  int    `json:"max_results,omitempty" jsonschema:"the most matches to show in this page (default 50, at most 500)"`
	tool.LibraryArg
	tool.Paging
}

// nameHit is one entity found by its name or an alias.
type nameHit struct {
	EntityName string `json:"entity_name"`
	Alias      string `json:"matched_alias,omitempty"`
}

func (e *searcher) searchInNames(ctx context.Context, call *tool.Call, in searchInNamesIn) (tool.Result, *entityListOut[nameHit], error) {
	l, fail, err := e.loaded(ctx, call)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	p, err := compileNamePattern(in.EntityGlob)
	if err != nil {
		return patternFailure("entity_glob", err), nil, nil
	}
	g := l.Graph()
	var hits []nameHit
	for _, path := range g.Notes() {
		if nameMatches(p, path) {
			hits = append(hits, nameHit{EntityName: path.Name()})
			continue
		}
		if n, ok := g.Note(path); ok {
			for _, a := range n.Aliases {
				if p.re.MatchString(a) {
					hits = append(hits, nameHit{EntityName: path.Name(), Alias: a})
					break
				}
			}
		}
	}
	if len(hits) == 0 {
		return tool.Fail(tool.CodeNoMatch, "no entity name or alias matches %q; a glob without \"/\" matches a note's own name, \"**\" crosses folders (\"**/*%s*\")", in.EntityGlob, strings.Trim(in.EntityGlob, "*/")), nil, nil
	}
	page, info := tool.Paginate(hits, in.Paging)
	return tool.OK(info.Hint("entities")), &entityListOut[nameHit]{Entities: page, Page: info}, nil
}

// nameMatches reports whether p matches a note's name: the whole name, or, for a
// pattern without "/", the name without its folder.
func nameMatches(p *searchPattern, path vpath.Path) bool {
	name := path.Name()
	if p.re.MatchString(name) {
		return true
	}
	if strings.Contains(p.src, "/") && !strings.HasPrefix(p.src, "/") {
		return false
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	return base != name && p.re.MatchString(base)
}

// patternFailure answers an invalid pattern.
func patternFailure(arg string, err error) tool.Result {
	if errors.Is(err, errPattern) {
		return tool.Fail(tool.CodeInvalidArguments, "%s: %v; write a glob such as \"*engine*\", or a regular expression between slashes such as \"/engine(s)?/i\"", arg, err)
	}
	return tool.Fail(tool.CodeInvalidArguments, "%s: %v", arg, err)
}

// defaultSearchTimeout bounds one content search unless Deps says otherwise; what
// was found by then is answered.
const defaultSearchTimeout = 10 * time.Second

// contentQuery is one content search: what to look for, where, and in which parts.
type contentQuery struct {
	pattern    *searchPattern
	names      *searchPattern // nil: every note
	frontInc   bool           // search the front matter too (search_anywhere)
	nameInc    bool           // match the names too (search_anywhere)
	maxResults int
	paging     tool.Paging
}

func (e *searcher) searchInContents(ctx context.Context, call *tool.Call, in searchInContentsIn) (tool.Result, *contentOut, error) {
	q, fail := newContentQuery(in.ContentGlob, "content_glob", in.EntityGlob, in.MaxResults, in.Paging)
	if fail != nil {
		return *fail, nil, nil
	}
	return e.runContentQuery(ctx, call, q)
}

func (e *searcher) searchAnywhere(ctx context.Context, call *tool.Call, in searchAnywhereIn) (tool.Result, *contentOut, error) {
	q, fail := newContentQuery(in.PatternGlob, "pattern_glob", in.EntityGlob, in.MaxResults, in.Paging)
	if fail != nil {
		return *fail, nil, nil
	}
	q.frontInc, q.nameInc = true, true
	return e.runContentQuery(ctx, call, q)
}

// newContentQuery compiles the patterns of a content search.
func newContentQuery(pattern, arg, entityGlob string, maxResults int, pg tool.Paging) (contentQuery, *tool.Result) {
	q := contentQuery{maxResults: maxResults, paging: pg}
	var err error
	if q.pattern, err = compileSearchPattern(pattern); err != nil {
		r := patternFailure(arg, err)
		return q, &r
	}
	if entityGlob != "" {
		if q.names, err = compileNamePattern(entityGlob); err != nil {
			r := patternFailure("entity_glob", err)
			return q, &r
		}
	}
	if q.maxResults <= 0 {
		q.maxResults = defaultMaxResult
	}
	q.maxResults = min(q.maxResults, maxMaxResults)
	return q, nil
}

// contentOut is the output of search_in_contents and search_anywhere: one page of the
// notes with matches.
type contentOut struct {
	Page    tool.PageInfo `json:"page"`
	Results []noteMatches `json:"results"`
}

func (e *searcher) runContentQuery(ctx context.Context, call *tool.Call, q contentQuery) (tool.Result, *contentOut, error) {
	l, fail := e.library(ctx, call) // not loaded: a one-shot search lists the folder rather than scan it
	if fail != nil {
		return *fail, nil, nil
	}
	sctx, cancel := context.WithTimeout(ctx, e.searchTimeout)
	defer cancel()
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
		if q.nameInc {
			paths, nameOnly = mergeNameOnly(c.Notes, c.Others)
		}
	} else {
		var err error
		if paths, err = e.candidateNotes(ctx, l, q.names); err != nil {
			return tool.Result{}, nil, err
		}
		corpus = diskCorpus{l.Vault()}
		if l.Scanned() && l.Parent() == l {
			corpus = e.caches.corpus(l) // the graph says which cached texts are current
		}
	}
	offset, limit := q.paging.Window()
	want := pageWant{offset: offset, limit: limit, lines: q.maxResults}
	if q.paging.SummaryOnly {
		want.limit = len(paths) + 1 // a summary counts every note with matches
	}
	page, info, problems, err := searchPage(sctx, corpus, paths, nameOnly, q, want)
	info.Limit = limit
	timedOut := err != nil
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return tool.Result{}, nil, fmt.Errorf("search %s: %w", l.Name(), err)
		}
		problems = append(problems, fmt.Sprintf("the search stopped after %v, so the results are incomplete; search for a word (a literal) or narrow entity_glob", e.searchTimeout))
		info.AtLeast = true
	}
	if info.Total == 0 {
		r := tool.Fail(tool.CodeNoMatch, "nothing matches %q in %d notes; try a shorter pattern, wildcards (\"*engine*\") or search_in_names", q.pattern.src, len(paths))
		for _, p := range problems {
			r = r.WithWarning("%s", p)
		}
		return r, nil, nil
	}
	if q.paging.SummaryOnly {
		page = page[:0:0]
		info.SummaryOnly, info.NextOffset = true, 0
	}
	page, cut := capMatches(page, q.maxResults)
	for i := range page {
		renderAll(page[i].Matches)
	}
	res := tool.OK(info.Hint("notes with matches"))
	if cut {
		res = res.WithWarning("only the first %d matching lines are shown; narrow the pattern or entity_glob, or page with a smaller limit", q.maxResults)
	}
	for _, p := range problems {
		res = res.WithWarning("%s", p)
	}
	if timedOut {
		res.Status = tool.StatusPartial
	}
	return res, &contentOut{Results: page, Page: info}, nil
}

// patternCandidates asks the library's index which notes may match q's pattern; ok
// is false when the index cannot narrow the search (the pattern requires no
// trigram) or is unavailable, and the caller reads every note.
func (e *searcher) patternCandidates(ctx context.Context, l *library.Library, q contentQuery) (search.Candidates, bool) {
	tree, err := syntax.Parse(q.pattern.re.String(), syntax.Perl)
	if err != nil || search.RequiredTrigrams(tree) == nil {
		return search.Candidates{}, false
	}
	ix, err := e.indexes.get(ctx, l)
	if err != nil {
		return search.Candidates{}, false
	}
	c, err := ix.PatternCandidates(ctx, tree)
	if err != nil {
		return search.Candidates{}, false
	}
	c = overlayOf(l).candidates(c)
	if q.names != nil {
		c.Notes = slices.DeleteFunc(c.Notes, func(p vpath.Path) bool { return !nameMatches(q.names, p) })
		c.Others = slices.DeleteFunc(c.Others, func(p vpath.Path) bool { return !nameMatches(q.names, p) })
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
func (e *searcher) candidateNotes(ctx context.Context, l *library.Library, names *searchPattern) ([]vpath.Path, error) {
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
		if nameMatches(names, p) {
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

// searchPage runs q over the notes at paths (in path order; those marked nameOnly
// are matched by name without being read), in parallel, and returns the page want
// asks for, stopping once it is known (see pageCollector).
func searchPage(ctx context.Context, c textCorpus, paths []vpath.Path, nameOnly []bool, q contentQuery, want pageWant) ([]noteMatches, tool.PageInfo, []string, error) {
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	pc := newPageCollector(len(paths), want, stop)
	read, at := paths, []int(nil)
	if nameOnly != nil {
		read = nil
		for i, p := range paths {
			if nameOnly[i] {
				pc.done(i, matchNote(q, p, nil))
				continue
			}
			read, at = append(read, p), append(at, i)
		}
	}
	problems, err := c.scan(sctx, read, func([]byte) bool { return true }, func(j int, data []byte) {
		i := j
		if at != nil {
			i = at[j]
		}
		r := matchNote(q, paths[i], data)
		if r != nil {
			r.own(data) // data is the corpus's only during this call
		}
		pc.done(i, r)
	})
	if err != nil && ctx.Err() == nil && errors.Is(err, context.Canceled) {
		err = nil // stopped because the page is complete
	}
	page, info := pc.info()
	return page, info, problems, err
}

// matchNote searches one note; nil when nothing matches.
func matchNote(q contentQuery, p vpath.Path, data []byte) *noteMatches {
	nm := noteMatches{EntityName: p.Name(), FilePath: string(p)}
	if q.nameInc && q.pattern.re.MatchString(p.Name()) {
		nm.Matches = append(nm.Matches, lineMatch{MatchedIn: "name", MatchedText: p.Name()})
		nm.MatchCount++
	}
	body := frontMatterEnd(data)
	if q.frontInc && body > 0 && q.pattern.regionMatches(data, 0, body) {
		m, n := findLines(q.pattern, data, 0, body, "frontmatter")
		nm.Matches, nm.MatchCount = append(nm.Matches, m...), nm.MatchCount+n
	}
	where := ""
	if q.frontInc {
		where = "content"
	}
	if q.pattern.regionMatches(data, body, len(data)) {
		m, n := findLines(q.pattern, data, body, len(data), where)
		nm.Matches, nm.MatchCount = append(nm.Matches, m...), nm.MatchCount+n
	}
	if nm.MatchCount == 0 {
		return nil
	}
	if len(nm.Matches) > maxLinesPerNote {
		nm.Matches = nm.Matches[:maxLinesPerNote]
	}
	return &nm
}

// own points the matches of nm at a copy of data, the note they were found in.
func (nm *noteMatches) own(data []byte) {
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
func capMatches(page []noteMatches, maxLines int) ([]noteMatches, bool) {
	out := make([]noteMatches, 0, len(page))
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
