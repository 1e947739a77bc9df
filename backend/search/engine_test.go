package search

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/library"
)

// engineVault writes a small vault and opens it as a library, scanned or lazy (as a
// one-shot command opens it), with an engine whose indexes close with the test.
func engineVault(t *testing.T, lazy bool) (*Engine, *library.Library) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.md":                   "alpha engine, see [[d]]\nsecond engine line\n",
		"b/b.md":                 "---\ntitle: engine\n---\nno match here\n",
		"c.md":                   "Engine room\n",
		"d.md":                   "nothing\n",
		"people/engine notes.md": "x\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openEngine(t, dir, lazy)
}

// openEngine opens the vault at dir as a library, scanned or lazy, with an engine of
// its own whose indexes close with the test.
func openEngine(t *testing.T, dir string, lazy bool) (*Engine, *library.Library) {
	t.Helper()
	l, err := library.Open(t.Context(), "t", dir, library.Options{Lazy: lazy})
	if err != nil {
		t.Fatal(err)
	}
	var closers []func()
	t.Cleanup(func() {
		for _, c := range closers {
			c()
		}
		l.Close()
	})
	return NewEngine(EngineOptions{AtClose: func(f func()) { closers = append(closers, f) }}), l
}

// found is what a test compares of a content search's answer: each note with its
// matches as "where:line:text", then the counts.
type found struct {
	Notes            map[string][]string
	Order            []string
	Total, Next      int
	Searched         int
	Cut, TimedOut    bool
	ProblemsReported int
}

func foundOf(p ContentPage) found {
	f := found{Notes: map[string][]string{}, Total: p.Total, Next: p.NextOffset, Searched: p.Searched, Cut: p.Cut, TimedOut: p.TimedOut, ProblemsReported: len(p.Problems)}
	for _, n := range p.Notes {
		f.Order = append(f.Order, n.EntityName)
		for _, m := range n.Matches {
			f.Notes[n.EntityName] = append(f.Notes[n.EntityName], fmt.Sprintf("%s:%d:%s", m.MatchedIn, m.LineNumber, m.MatchedText))
		}
	}
	return f
}

// TestEngineContents runs the content searches the tools ask for on a scanned
// library and on a lazy one (which lists its folder): a page stops at its limit with
// the count so far and the next offset, a summary counts every note with matches and
// shows none, a name filter keeps its notes, MaxLines fills a page and cuts the lines
// of its last note, and the index narrows the notes read to those holding the word.
func TestEngineContents(t *testing.T) {
	anywhere := func(pattern, names string) ContentQuery {
		q := ContentQuery{FrontMatter: true, Name: true, Limit: 10, MaxLines: 50}
		var err error
		if q.Pattern, err = CompilePattern(pattern); err != nil {
			t.Fatal(err)
		}
		if names != "" {
			if q.Names, err = CompileNamePattern(names); err != nil {
				t.Fatal(err)
			}
		}
		return q
	}
	firstPage := anywhere("*engine*", "")
	firstPage.Limit = 2
	summary := anywhere("*engine*", "")
	summary.Summary = true
	people := anywhere("*engine*", "people/*")
	oneLine := anywhere("*engine*", "")
	oneLine.MaxLines = 1
	contentOnly := anywhere("/engine/i", "")
	contentOnly.FrontMatter, contentOnly.Name = false, false
	tests := []struct {
		name string
		q    ContentQuery
		want found
	}{
		{"first page", firstPage, found{
			Notes: map[string][]string{"a": {"content:1:engine", "content:2:engine"}, "b/b": {"frontmatter:2:engine"}},
			Order: []string{"a", "b/b"}, Total: 3, Next: 2, Searched: 5,
		}},
		{"summary", summary, found{Notes: map[string][]string{}, Total: 4, Searched: 5}},
		{"names", people, found{
			Notes: map[string][]string{"people/engine notes": {"name:0:people/engine notes"}},
			Order: []string{"people/engine notes"}, Total: 1, Searched: 1,
		}},
		{"lines cut", oneLine, found{
			Notes: map[string][]string{"a": {"content:1:engine"}},
			Order: []string{"a"}, Total: 2, Next: 1, Searched: 5, Cut: true,
		}},
		{"content only", contentOnly, found{
			Notes: map[string][]string{"a": {":1:engine", ":2:engine"}, "c": {":1:Engine"}},
			Order: []string{"a", "c"}, Total: 2, Searched: 3, // b/b holds the word in its front matter

		}},
	}
	for _, lazy := range []bool{false, true} {
		e, l := engineVault(t, lazy)
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/lazy=%v", tc.name, lazy), func(t *testing.T) {
				page, err := e.Contents(t.Context(), l, tc.q, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tc.want, foundOf(page)); d != "" {
					t.Errorf("Contents (-want +got):\n%s", d)
				}
			})
		}
	}
}

// TestEngineRelated ranks a full-text query on the library's index and follows the
// links of its match: the note it links to joins at half its score, naming the match.
func TestEngineRelated(t *testing.T) {
	e, l := engineVault(t, false)
	ix, err := e.IndexOf(t.Context(), l)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Query: "alpha", Limit: 10, NoSnippet: true}
	ranked, err := ix.Rank(t.Context(), FullText, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked.Hits) != 1 || ranked.Hits[0].Path != "a.md" {
		t.Fatalf("hits %+v, want a.md alone", ranked.Hits)
	}
	g, err := l.Graph(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range Related(g, ranked.Hits, req, 10) {
		got = append(got, string(h.Path)+" via "+h.Via)
		if h.Path == "d.md" && h.Score != ranked.Hits[0].Score/2 {
			t.Errorf("d.md scored %v, want half of a.md's %v", h.Score, ranked.Hits[0].Score)
		}
	}
	if d := cmp.Diff([]string{"a.md via ", "d.md via a"}, got); d != "" {
		t.Errorf("Related (-want +got):\n%s", d)
	}
}
