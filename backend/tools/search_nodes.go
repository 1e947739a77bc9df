package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
	"github.com/memotree/memotree/backend/vpath"
)

func init() { families = append(families, searchNodesTools) }

func searchNodesTools(e *env) []*tool.Tool {
	s := &nodeSearcher{env: e, patterns: &searcher{env: e}}
	return []*tool.Tool{tool.New("search_nodes", tool.ReadOnly, desc("search_nodes"), s.searchNodes)}
}

// nodeSearcher answers search_nodes with one full-text index per library, opened on
// first use and kept current through the library's change notifications.
type nodeSearcher struct {
	*env
	patterns *searcher
}

type searchNodesIn struct {
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
	LibraryName    string   `json:"library_name,omitempty" jsonschema:"the library to search; the default one when absent"`
}

// nodeHit is one note found.
type nodeHit struct {
	EntityName string   `json:"entity_name"`
	Score      float64  `json:"score"`
	EntityType string   `json:"entity_type,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Preview    string   `json:"preview,omitempty"`
	Line       int      `json:"line,omitempty"`
	Via        string   `json:"via,omitempty"` // relation search: the match it neighbours
}

func (s *nodeSearcher) searchNodes(ctx context.Context, call *tool.Call, in searchNodesIn) (tool.Result, error) {
	l, fail := s.library(call)
	if fail != nil {
		return *fail, nil
	}
	if strings.TrimSpace(in.Query) == "" {
		return tool.Fail(tool.CodeInvalidArguments, "query is empty: give words to look for, such as \"analytical engine\""), nil
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
			return *fail, nil
		}
		q.frontInc, q.nameInc = true, true
		return s.patterns.runContentQuery(ctx, call, q)
	case "semantic", "hybrid":
		if !search.Configured(s.embedder()) {
			return tool.Fail(tool.CodeInvalidArguments, "search_type %s needs an embeddings model, and none is configured (the person names one in the settings, Embedding model, or in MEMOTREE_EMBEDDING_MODEL); use search_type fulltext (ranked words) instead", in.SearchType), nil
		}
	default:
		return tool.Fail(tool.CodeInvalidArguments, "search_type %q is not one of fulltext, pattern, relation, semantic, hybrid", in.SearchType), nil
	}
	within, fail := s.scope(ctx, call, l, in)
	if fail != nil {
		return *fail, nil
	}
	ix, err := s.indexes.get(ctx, l)
	if err != nil {
		return tool.Result{}, err
	}
	preview := in.IncludePreview == nil || *in.IncludePreview
	req := search.Request{Query: in.Query, Limit: in.MaxResults, Types: in.EntityTypes, Tags: in.Tags,
		Within: within, PreviewLength: in.PreviewLength, NoSnippet: !preview}
	hits, pending, err := runSearch(ctx, ix, in.SearchType, req)
	if err != nil {
		if in.SearchType == "semantic" || in.SearchType == "hybrid" {
			return tool.Fail(tool.CodeInternal, "the embeddings model failed: %v; try search_type fulltext", err), nil
		}
		return tool.Result{}, fmt.Errorf("search %s: %w", l.Name(), err)
	}
	out := make([]nodeHit, 0, len(hits))
	for _, h := range hits {
		nh := nodeHit{EntityName: h.Path.Name(), Score: h.Score, EntityType: h.EntityType, Tags: h.Tags}
		if h.Snippet != nil {
			nh.Preview, nh.Line = h.Snippet.Rendered, h.Snippet.Line
		}
		out = append(out, nh)
	}
	if in.SearchType == "relation" {
		out = s.neighbourhood(l, out, req, in.MaxResults)
	}
	if len(out) == 0 {
		return tool.Fail(tool.CodeNoMatch, "no note matches %q; try fewer or other words, a prefix (\"engin*\"), or search_type pattern for exact text", in.Query), nil
	}
	res := tool.OK(fmt.Sprintf("%d notes, best first", len(out)), map[string]any{"results": out})
	if pending > 0 {
		res = res.WithWarning("%d notes are still being embedded and were left out; ask again in a moment for a complete answer", pending)
		res.Status = tool.StatusPartial
	}
	return res, nil
}

// embedWait is how long a semantic search waits for notes still being embedded
// before it answers without them.
const embedWait = 5 * time.Second

// runSearch runs one search of the given type; pending counts the notes a semantic
// or hybrid answer had to leave out because they are not embedded yet.
func runSearch(ctx context.Context, ix *search.Index, typ string, r search.Request) ([]search.Hit, int, error) {
	switch typ {
	case "semantic", "hybrid":
		wctx, cancel := context.WithTimeout(ctx, embedWait)
		err := ix.WaitEmbedded(wctx)
		cancel()
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, 0, err
		}
		var hits []search.Hit
		var info search.SemanticInfo
		if typ == "semantic" {
			hits, info, err = ix.SemanticSearch(ctx, r)
		} else {
			hits, info, err = ix.HybridSearch(ctx, r)
		}
		return hits, info.Pending, err
	}
	hits, err := ix.Search(ctx, r)
	return hits, 0, err
}

// neighbourhood follows the graph one step from each match: the notes they link to
// or are linked from join the matches, each naming the match it came by and scored
// half as much (the best of its matches when several lead to it), those the request's
// filters refuse left out. The answer is the best limit of them all, best first.
func (s *nodeSearcher) neighbourhood(l *library.Library, hits []nodeHit, req search.Request, limit int) []nodeHit {
	g := l.Graph()
	at := map[string]int{}
	out := slices.Clone(hits)
	for i, h := range out {
		at[h.EntityName] = i
	}
	for _, h := range hits {
		p, err := g.Lookup(h.EntityName)
		if err != nil {
			continue
		}
		for _, n := range g.Neighbors(p, 1, nil) {
			name, score := n.Name(), h.Score/2
			if i, seen := at[name]; seen {
				if out[i].Via != "" && score > out[i].Score {
					out[i].Score, out[i].Via = score, h.EntityName
				}
				continue
			}
			nt, ok := g.Note(n)
			if !n.IsNote() || !ok || !req.Admits(n, nt.EntityType, tagNames(nt)) {
				continue
			}
			at[name] = len(out)
			out = append(out, nodeHit{EntityName: name, Score: score, EntityType: nt.EntityType, Via: h.EntityName})
		}
	}
	slices.SortStableFunc(out, func(a, b nodeHit) int { return cmp.Compare(b.Score, a.Score) })
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

// scope turns the scope arguments into a filter on paths (nil: every note).
func (s *nodeSearcher) scope(ctx context.Context, call *tool.Call, l *library.Library, in searchNodesIn) (func(vpath.Path) bool, *tool.Result) {
	switch in.Scope {
	case "", "all":
		return nil, nil
	case "subtree", "related":
		if in.EntityName == "" {
			r := tool.Fail(tool.CodeInvalidArguments, "scope %s needs entity_name, the node to search under or around", in.Scope)
			return nil, &r
		}
		if in.Scope == "subtree" {
			if dir, err := vpath.Parse(strings.Trim(in.EntityName, "/")); err == nil && dir != "" {
				if info, err := l.Vault().Stat(dir); err == nil && info.IsDir {
					prefix := string(dir) + "/"
					return func(q vpath.Path) bool { return strings.HasPrefix(string(q), prefix) }, nil
				}
			}
		}
		p, fail := lookup(l, in.EntityName)
		if fail != nil {
			return nil, fail
		}
		if in.Scope == "subtree" {
			prefix := strings.TrimSuffix(string(p), ".md") + "/"
			return func(q vpath.Path) bool { return q == p || strings.HasPrefix(string(q), prefix) }, nil
		}
		set := map[vpath.Path]bool{p: true}
		for _, n := range l.Graph().Neighbors(p, 2, nil) {
			set[n] = true
		}
		return func(q vpath.Path) bool { return set[q] }, nil
	}
	if in.Scope == "current_view" {
		if s.canvases == nil {
			f := tool.Fail(tool.CodeInvalidArguments, "scope current_view needs the canvas, which is not available here; use scope all, subtree or related")
			return nil, &f
		}
		return s.viewScope(call, in.ViewName)
	}
	f := tool.Fail(tool.CodeInvalidArguments, "scope %q is not one of all, subtree, related, current_view", in.Scope)
	return nil, &f
}
