package uiapi

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/catalog"
	"github.com/memotree/memotree/backend/search"
	"github.com/memotree/memotree/backend/tool"
)

// SwitchItem is one note offered by the quick switcher.
type SwitchItem struct {
	Path string `json:"path"`
	Name string `json:"name"`
	// Alias is the alias that matched, when the note matched by an alias.
	Alias string `json:"alias,omitempty"`
	Score int    `json:"score"`
}

// QuickSwitch ranks the notes whose names or aliases match query fuzzily (its
// characters in order), best first, at most limit (default 50).
func (a *API) QuickSwitch(libraryName, query string, limit int) ([]SwitchItem, error) {
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 50
	}
	g, err := graphOf(l)
	if err != nil {
		return nil, err
	}
	var out []SwitchItem
	for _, p := range g.Notes() {
		name := p.Name()
		best := SwitchItem{Path: string(p), Name: name, Score: -1 << 30}
		if s, ok := search.FuzzyScore(query, name); ok {
			best.Score = s
		}
		if n, ok := g.Note(p); ok && strings.TrimSpace(query) != "" {
			for _, al := range n.Aliases {
				if s, ok := search.FuzzyScore(query, al); ok && s > best.Score {
					best.Score, best.Alias = s, al
				}
			}
		}
		if best.Score > -1<<30 {
			out = append(out, best)
		}
	}
	slices.SortStableFunc(out, func(x, y SwitchItem) int {
		if x.Score != y.Score {
			return y.Score - x.Score
		}
		return strings.Compare(x.Path, y.Path)
	})
	return out[:min(limit, len(out))], nil
}

// SearchOptions narrow a search of the search panel.
type SearchOptions struct {
	// Type is fulltext (default), pattern, relation, semantic or hybrid.
	Type        string   `json:"type"`
	EntityTypes []string `json:"entity_types"`
	Tags        []string `json:"tags"`
	Max         int      `json:"max"`
}

// SearchHit is one note found by the search panel; Preview marks matches with **.
type SearchHit struct {
	EntityName string   `json:"entity_name"`
	Path       string   `json:"path"`
	Score      float64  `json:"score"`
	EntityType string   `json:"entity_type"`
	Tags       []string `json:"tags"`
	Preview    string   `json:"preview"`
	Line       int      `json:"line"`
}

// SearchResults is the answer to Search; Message explains an empty or partial answer.
type SearchResults struct {
	Hits    []SearchHit `json:"hits"`
	Message string      `json:"message"`
	Partial bool        `json:"partial"`
}

// Search runs search_nodes for the window, through the same registry (and so the same
// index) as the agent's searches.
func (a *API) Search(libraryName, query string, o SearchOptions) (SearchResults, error) {
	reg, err := a.ws.Registry()
	if err != nil {
		return SearchResults{}, err
	}
	if o.Max <= 0 {
		o.Max = 30
	}
	in := catalog.SearchNodesIn{Query: query, SearchType: o.Type, EntityTypes: o.EntityTypes, Tags: o.Tags,
		MaxResults: o.Max, PreviewLength: 200}
	res, found, err := catalog.SearchNodes.Call(context.Background(), reg, &tool.Call{Actor: tool.ActorUser, Library: libraryName}, in)
	if err != nil {
		return SearchResults{}, fmt.Errorf("search %s: %w", libraryName, err)
	}
	out := SearchResults{Hits: []SearchHit{}, Message: res.Message, Partial: res.Status == tool.StatusPartial}
	if res.IsError() {
		if res.ErrorCode == tool.CodeNoMatch {
			return out, nil
		}
		return out, fmt.Errorf("%s", res.Message)
	}
	l, err := a.ws.Library(libraryName)
	if err != nil {
		return out, err
	}
	g, err := graphOf(l)
	if err != nil {
		return out, err
	}
	for _, h := range found.Hits() {
		hit := SearchHit{EntityName: h.EntityName, Score: h.Score, EntityType: h.EntityType, Tags: h.Tags, Preview: h.Preview, Line: h.Line}
		if p, err := g.Lookup(h.EntityName); err == nil {
			hit.Path = string(p)
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}
