package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, searchNodesTools) }

func searchNodesTools(e *env) []*tool.Tool {
	s := &nodeSearcher{env: e, patterns: &searcher{env: e}}
	return []*tool.Tool{SearchNodes.New(tool.ReadOnly, desc("search_nodes"), s.searchNodes).
		Describe(tool.LibraryParam, librarySearched).TuneOutput(patternResults)}
}

// nodeSearcher answers search_nodes, which the registry's search engine (env.search)
// runs; a pattern search_type is search_anywhere's search.
type nodeSearcher struct {
	*env
	patterns *searcher
}

// SearchNodesIn is the input of search_nodes.
type SearchNodesIn struct {
	Query          string   `json:"query" jsonschema:"words, \"a phrase\", prefix* and -excluded words; for search_type pattern a glob or /regexp/"`
	SearchType     string   `json:"search_type,omitempty" jsonschema:"fulltext (default, ranked), pattern (glob or /regexp/ over names, front matter and text), relation (full-text matches and their graph neighbours), semantic (nearest in meaning, needs an embeddings model), hybrid (fulltext and semantic fused)"`
	ViewName       string   `json:"view_name,omitempty" jsonschema:"the canvas view of scope current_view; \"default\" when absent"`
	Scope          string   `json:"scope,omitempty" jsonschema:"all (default), subtree (the node or folder entity_name and the notes below it), related (notes linked to entity_name within two steps), current_view"`
	EntityName     string   `json:"entity_name,omitempty" jsonschema:"the node of scope subtree or related"`
	EntityTypes    []string `json:"entity_types,omitempty" jsonschema:"keep notes of these entity types"`
	Tags           []string `json:"tags,omitempty" jsonschema:"keep notes holding one of these tags (nested tags included)"`
	MaxResults     int      `json:"max_results,omitempty" jsonschema:"the most notes returned (default 10, at most 200)"`
	IncludePreview *bool    `json:"include_preview,omitempty" jsonschema:"show a snippet with the matches in ** (default true)"`
	PreviewLength  int      `json:"preview_length,omitempty" jsonschema:"snippet length in bytes (default 160, at most 2000)"`
	tool.LibraryArg
}

// SearchNodesOut is the output of search_nodes: the notes found, best first. For
// search_type pattern it is instead one page of the notes with matches, as
// search_in_contents gives them, under the same key "results".
type SearchNodesOut struct {
	// Page is the page of Matches.
	Page *tool.PageInfo `json:"page,omitempty"`
	// Results are the notes found by every search type but pattern.
	Results []NodeHit `json:"results"`
	// Matches are the notes with matches of search_type pattern.
	Matches []search.NoteMatches `json:"-"`
}

// MarshalJSON writes Matches as the results when the search was a pattern search.
func (o SearchNodesOut) MarshalJSON() ([]byte, error) {
	if o.Matches != nil {
		return tool.MarshalData(contentOut{Page: *o.Page, Results: o.Matches})
	}
	type plain SearchNodesOut // without this method
	return tool.MarshalData(plain(o))
}

// Hits returns the notes found, best first, whatever the search type: for a pattern
// search, the notes with matches, by name only.
func (o *SearchNodesOut) Hits() []NodeHit {
	if o.Matches == nil {
		return o.Results
	}
	out := make([]NodeHit, len(o.Matches))
	for i, m := range o.Matches {
		out[i] = NodeHit{EntityName: m.EntityName}
	}
	return out
}

// patternResults tells the output schema that results may be the notes with matches of
// a pattern search, with a page.
func patternResults(s *jsonschema.Schema) error {
	matches, err := jsonschema.For[[]search.NoteMatches](nil)
	if err != nil {
		return err
	}
	s.Properties["results"] = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s.Properties["results"], matches}}
	return nil
}

// NodeHit is one note found.
type NodeHit struct {
	EntityName string   `json:"entity_name"`
	Score      float64  `json:"score"`
	EntityType string   `json:"entity_type,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Preview    string   `json:"preview,omitempty"`
	Line       int      `json:"line,omitempty"`
	Via        string   `json:"via,omitempty"` // relation search: the match it neighbours
}

func (s *nodeSearcher) searchNodes(ctx context.Context, call *tool.Call, in SearchNodesIn) (tool.Result, *SearchNodesOut, error) {
	// Not loaded: a one-shot full-text search answers from the persisted index without
	// scanning the vault; the graph is read only for what needs it (relation, related,
	// an entity named by its note).
	l, fail := s.library(ctx, call)
	if fail != nil {
		return *fail, nil, nil
	}
	if strings.TrimSpace(in.Query) == "" {
		return tool.Fail(tool.CodeInvalidArguments, "query is empty: give words to look for, such as \"analytical engine\""), nil, nil
	}
	if in.MaxResults <= 0 {
		in.MaxResults = 10
	}
	in.MaxResults = min(in.MaxResults, 200)
	in.PreviewLength = min(in.PreviewLength, 2000)
	switch in.SearchType {
	case "", "fulltext", "relation":
	case "pattern":
		q, fail := newContentQuery(in.Query, "query", "", in.MaxResults, tool.Paging{Limit: in.MaxResults})
		if fail != nil {
			return *fail, nil, nil
		}
		q.FrontMatter, q.Name = true, true
		res, out, err := s.patterns.runContentQuery(ctx, call, q)
		if out == nil {
			return res, nil, err
		}
		return res, &SearchNodesOut{Page: &out.Page, Matches: out.Results}, err
	case "semantic", "hybrid":
		if !search.Configured(s.embedder()) {
			return tool.Fail(tool.CodeInvalidArguments, "search_type %s needs an embeddings model, and none is configured (the person names one in the settings, Embedding model, or in MEMOTREE_EMBEDDING_MODEL); use search_type fulltext (ranked words) instead", in.SearchType), nil, nil
		}
	default:
		return tool.Fail(tool.CodeInvalidArguments, "search_type %q is not one of fulltext, pattern, relation, semantic, hybrid", in.SearchType), nil, nil
	}
	within, fail, err := s.scope(ctx, call, l, in)
	if fail != nil || err != nil {
		return deref(fail), nil, err
	}
	ix, err := s.search.IndexOf(ctx, l)
	if err != nil {
		return tool.Result{}, nil, err
	}
	preview := in.IncludePreview == nil || *in.IncludePreview
	req := search.Request{Query: in.Query, Limit: in.MaxResults, Types: in.EntityTypes, Tags: in.Tags,
		Within: within, PreviewLength: in.PreviewLength, NoSnippet: !preview}
	found, err := ix.Rank(ctx, searchMode(in.SearchType), req)
	if err != nil {
		if in.SearchType == "semantic" || in.SearchType == "hybrid" {
			return tool.Fail(tool.CodeInternal, "the embeddings model failed: %v; try search_type fulltext", err), nil, nil
		}
		return tool.Result{}, nil, fmt.Errorf("search %s: %w", l.Name(), err)
	}
	var out []NodeHit
	if in.SearchType == "relation" {
		lg, fail, err := s.loaded(ctx, call)
		if fail != nil || err != nil {
			return deref(fail), nil, err
		}
		for _, h := range search.Related(lg.Graph(), found.Hits, req, in.MaxResults) {
			out = append(out, nodeHit(h.Hit, h.Via))
		}
	} else {
		for _, h := range found.Hits {
			out = append(out, nodeHit(h, ""))
		}
	}
	if len(out) == 0 {
		return tool.Fail(tool.CodeNoMatch, "no note matches %q; try fewer or other words, a prefix (\"engin*\"), or search_type pattern for exact text", in.Query), nil, nil
	}
	res := tool.OK(fmt.Sprintf("%d notes, best first", len(out)))
	if found.StagedLeftOut > 0 {
		res = res.WithWarning("the %d notes this script wrote are not in a semantic search until it has finished; search_type fulltext finds them", found.StagedLeftOut)
	}
	if found.Pending > 0 {
		res = res.WithWarning("%d notes are still being embedded and were left out; ask again in a moment for a complete answer", found.Pending)
		res.Status = tool.StatusPartial
	}
	return res, &SearchNodesOut{Results: out}, nil
}

// nodeHit is a note found as search_nodes shows it; via names the match a relation
// search reached it from.
func nodeHit(h search.Hit, via string) NodeHit {
	nh := NodeHit{EntityName: h.Path.Name(), Score: h.Score, EntityType: h.EntityType, Tags: h.Tags, Via: via}
	if h.Snippet != nil {
		nh.Preview, nh.Line = h.Snippet.Rendered, h.Snippet.Line
	}
	return nh
}

// searchMode is the engine's mode of a ranked search type; fulltext and relation
// rank by the words.
func searchMode(typ string) search.Mode {
	switch typ {
	case "semantic":
		return search.Semantic
	case "hybrid":
		return search.Hybrid
	}
	return search.FullText
}

// scope turns the scope arguments into a filter on paths (nil: every note). The
// graph is loaded only when an entity must be looked up or followed.
func (s *nodeSearcher) scope(ctx context.Context, call *tool.Call, ll *library.Library, in SearchNodesIn) (func(vpath.Path) bool, *tool.Result, error) {
	switch in.Scope {
	case "", "all":
		return nil, nil, nil
	case "subtree", "related":
		if in.EntityName == "" {
			r := tool.Fail(tool.CodeInvalidArguments, "scope %s needs entity_name, the node to search under or around", in.Scope)
			return nil, &r, nil
		}
		if in.Scope == "subtree" {
			if dir, err := vpath.Parse(strings.Trim(in.EntityName, "/")); err == nil && dir != "" {
				if info, err := ll.Vault().Stat(dir); err == nil && info.IsDir {
					prefix := string(dir) + "/"
					return func(q vpath.Path) bool { return strings.HasPrefix(string(q), prefix) }, nil, nil
				}
			}
		}
		l, fail, err := s.loaded(ctx, call)
		if fail != nil || err != nil {
			return nil, fail, err
		}
		p, fail := lookup(l, in.EntityName)
		if fail != nil {
			return nil, fail, nil
		}
		if in.Scope == "subtree" {
			prefix := strings.TrimSuffix(string(p), ".md") + "/"
			return func(q vpath.Path) bool { return q == p || strings.HasPrefix(string(q), prefix) }, nil, nil
		}
		set := map[vpath.Path]bool{p: true}
		for _, n := range l.Graph().Neighbors(p, 2, nil) {
			set[n] = true
		}
		return func(q vpath.Path) bool { return set[q] }, nil, nil
	}
	if in.Scope == "current_view" {
		if s.canvases == nil {
			f := tool.Fail(tool.CodeInvalidArguments, "scope current_view needs the canvas, which is not available here; use scope all, subtree or related")
			return nil, &f, nil
		}
		within, fail := s.viewScope(ctx, call, in.ViewName)
		return within, fail, nil
	}
	f := tool.Fail(tool.CodeInvalidArguments, "scope %q is not one of all, subtree, related, current_view", in.Scope)
	return nil, &f, nil
}
