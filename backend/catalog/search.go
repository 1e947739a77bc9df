package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
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

// searcher answers the pattern searches of one registry, which its search engine
// (env.search) runs.
type searcher struct{ *env }

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
	p, err := search.CompileNamePattern(in.EntityGlob)
	if err != nil {
		return patternFailure("entity_glob", err), nil, nil
	}
	var hits []nameHit
	for _, m := range search.MatchNames(l.Graph(), p) {
		hits = append(hits, nameHit{EntityName: m.Path.Name(), Alias: m.Alias})
	}
	if len(hits) == 0 {
		return tool.Fail(tool.CodeNoMatch, "no entity name or alias matches %q; a glob without \"/\" matches a note's own name, \"**\" crosses folders (\"**/*%s*\")", in.EntityGlob, strings.Trim(in.EntityGlob, "*/")), nil, nil
	}
	page, info := tool.Paginate(hits, in.Paging)
	return tool.OK(info.Hint("entities")), &entityListOut[nameHit]{Entities: page, Page: info}, nil
}

// patternFailure answers an invalid pattern.
func patternFailure(arg string, err error) tool.Result {
	if errors.Is(err, search.ErrPattern) {
		return tool.Fail(tool.CodeInvalidArguments, "%s: %v; write a glob such as \"*engine*\", or a regular expression between slashes such as \"/engine(s)?/i\"", arg, err)
	}
	return tool.Fail(tool.CodeInvalidArguments, "%s: %v", arg, err)
}

// defaultSearchTimeout bounds one content search unless Deps says otherwise; what
// was found by then is answered.
const defaultSearchTimeout = 10 * time.Second

// contentQuery is one content search: the engine's query, and the page the call
// asks for.
type contentQuery struct {
	search.ContentQuery
	paging tool.Paging
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
	q.FrontMatter, q.Name = true, true
	return e.runContentQuery(ctx, call, q)
}

// The matching lines a content search shows in one call, by default and at most.
const (
	defaultMaxResult = 50
	maxMaxResults    = 500
)

// newContentQuery compiles the patterns of a content search.
func newContentQuery(pattern, arg, entityGlob string, maxResults int, pg tool.Paging) (contentQuery, *tool.Result) {
	q := contentQuery{paging: pg}
	var err error
	if q.Pattern, err = search.CompilePattern(pattern); err != nil {
		r := patternFailure(arg, err)
		return q, &r
	}
	if entityGlob != "" {
		if q.Names, err = search.CompileNamePattern(entityGlob); err != nil {
			r := patternFailure("entity_glob", err)
			return q, &r
		}
	}
	q.MaxLines = maxResults
	if q.MaxLines <= 0 {
		q.MaxLines = defaultMaxResult
	}
	q.MaxLines = min(q.MaxLines, maxMaxResults)
	return q, nil
}

// contentOut is the output of search_in_contents and search_anywhere: one page of the
// notes with matches.
type contentOut struct {
	Page    tool.PageInfo        `json:"page"`
	Results []search.NoteMatches `json:"results"`
}

// runContentQuery runs a content search in the call's library (search.Engine.Contents)
// and shapes its page into the tool's result.
func (e *searcher) runContentQuery(ctx context.Context, call *tool.Call, q contentQuery) (tool.Result, *contentOut, error) {
	l, fail := e.library(ctx, call) // not loaded: a one-shot search lists the folder rather than scan it
	if fail != nil {
		return *fail, nil, nil
	}
	offset, limit := q.paging.Window()
	q.Offset, q.Limit, q.Summary = offset, limit, q.paging.SummaryOnly
	found, err := e.search.Contents(ctx, l, q.ContentQuery, e.searchTimeout)
	if err != nil {
		return tool.Result{}, nil, err
	}
	info := tool.PageInfo{Total: found.Total, Offset: offset, Limit: limit, NextOffset: found.NextOffset, AtLeast: found.NextOffset > 0}
	if q.Summary {
		info.Offset = 0 // a summary counts from the first note
	}
	problems := found.Problems
	if found.TimedOut {
		problems = append(problems, fmt.Sprintf("the search stopped after %v, so the results are incomplete; search for a word (a literal) or narrow entity_glob", e.searchTimeout))
		info.AtLeast = true
	}
	if info.Total == 0 && found.TimedOut {
		r := tool.Partial(fmt.Sprintf("no note with matches was found in the %v the search may take", e.searchTimeout), problems...)
		return r, &contentOut{Results: found.Notes, Page: info}, nil
	}
	if info.Total == 0 {
		r := tool.Fail(tool.CodeNoMatch, "nothing matches %q in %d notes; try a shorter pattern, wildcards (\"*engine*\") or search_in_names", q.Pattern.Source(), found.Searched)
		for _, p := range problems {
			r = r.WithWarning("%s", p)
		}
		return r, nil, nil
	}
	if q.Summary {
		info.SummaryOnly, info.NextOffset, info.Offset = true, 0, offset
	}
	res := tool.OK(info.Hint("notes with matches"))
	if found.Cut {
		res = res.WithWarning("only the first %d matching lines are shown; narrow the pattern or entity_glob, or page with a smaller limit", q.MaxLines)
	}
	for _, p := range problems {
		res = res.WithWarning("%s", p)
	}
	if found.TimedOut {
		res.Status = tool.StatusPartial
	}
	return res, &contentOut{Results: found.Notes, Page: info}, nil
}
