package search

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memotree/memotree/backend/vpath"
)

var small = map[string]string{
	"people/Ada Lovelace.md":        "---\nentity type: person\naliases: [Ada]\ntags: [history, math/analysis]\n---\n# Ada Lovelace\n\nWrote the first published algorithm for the Analytical Engine.\n",
	"machines/Analytical Engine.md": "---\nentity type: machine\ntags: [history]\n---\nA general-purpose mechanical computer designed by [[Charles Babbage]].\n",
	"people/Charles Babbage.md":     "---\nentity type: person\n---\nBabbage designed the difference engine and the analytical engine.\nHe never finished an engine.\n",
	"中文/双向链接.md":                    "# 双向链接\n\n双向链接让笔记彼此相连。反向链接面板列出链接到当前笔记的其他笔记。\n",
	"中文/搜索.md":                      "使用搜索插件查找仓库中的文字。链接也可以被搜索。\n",
	"notes/engines.md":              "Steam engines, engineering and the engineer who built them.\n",
}

func paths(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = string(h.Path)
	}
	return out
}

func search(t *testing.T, ix *Index, r Request) []string {
	t.Helper()
	hits, err := ix.Search(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	return paths(hits)
}

func TestRanking(t *testing.T) {
	_, ix, _ := openIndex(t, writeVault(t, small), Options{SaveDelay: -1})
	tests := []struct {
		query string
		want  []string // exactly these, in this order
	}{
		{"ada", []string{"people/Ada Lovelace.md"}},
		{"analytical engine", []string{"machines/Analytical Engine.md", "people/Charles Babbage.md", "people/Ada Lovelace.md"}},
		{`"analytical engine"`, []string{"machines/Analytical Engine.md", "people/Charles Babbage.md", "people/Ada Lovelace.md"}},
		{`"engine analytical"`, nil},
		{"engine*", []string{"notes/engines.md", "machines/Analytical Engine.md", "people/Charles Babbage.md", "people/Ada Lovelace.md"}},
		{"engine -babbage", []string{"people/Ada Lovelace.md"}}, // the machine's note links to Babbage
		{"双向链接", []string{"中文/双向链接.md"}},
		{"链接", []string{"中文/双向链接.md", "中文/搜索.md"}},
		{"链", []string{"中文/双向链接.md", "中文/搜索.md"}},
		{"搜索", []string{"中文/搜索.md"}},
		{"向链", []string{"中文/双向链接.md"}},
		{"nothing-like-this", nil},
	}
	for _, tc := range tests {
		got := search(t, ix, Request{Query: tc.query})
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.query, diff)
		}
	}
}

func TestFilters(t *testing.T) {
	_, ix, _ := openIndex(t, writeVault(t, small), Options{SaveDelay: -1})
	got := search(t, ix, Request{Query: "engine", Types: []string{"Person"}})
	if diff := cmp.Diff([]string{"people/Charles Babbage.md", "people/Ada Lovelace.md"}, got); diff != "" {
		t.Errorf("type filter (-want +got):\n%s", diff)
	}
	got = search(t, ix, Request{Query: "engine", Tags: []string{"#math"}})
	if diff := cmp.Diff([]string{"people/Ada Lovelace.md"}, got); diff != "" {
		t.Errorf("nested tag filter (-want +got):\n%s", diff)
	}
	got = search(t, ix, Request{Query: "engine", Within: func(p vpath.Path) bool { return p.Dir() == "machines" }})
	if diff := cmp.Diff([]string{"machines/Analytical Engine.md"}, got); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
}

func TestSnippetHighlights(t *testing.T) {
	_, ix, _ := openIndex(t, writeVault(t, small), Options{SaveDelay: -1})
	for _, q := range []string{"analytical engine", "反向链接", "engine*"} {
		hits, err := ix.Search(t.Context(), Request{Query: q, PreviewLength: 60})
		if err != nil || len(hits) == 0 {
			t.Fatalf("%q: %v %v", q, hits, err)
		}
		for _, h := range hits {
			sn := h.Snippet
			if h.Path == "machines/Analytical Engine.md" {
				if sn == nil || len(sn.Matches) != 0 {
					t.Errorf("%q: %s matches by its title only, yet its snippet is %+v", q, h.Path, sn)
				}
				continue
			}
			if sn == nil || len(sn.Highlights) == 0 {
				t.Errorf("%q: %s has no highlighted snippet: %+v", q, h.Path, sn)
				continue
			}
			if len(sn.Text) > 60 {
				t.Errorf("%q: snippet of %d bytes, want at most 60", q, len(sn.Text))
			}
			data, _ := os.ReadFile(filepath.Join(ix.v.Dir(), string(h.Path)))
			for _, m := range sn.Matches {
				if w, _ := queryTerms(string(data[m[0]:m[1]])); len(w) == 0 {
					t.Errorf("%q: file span %v of %s is %q", q, m, h.Path, data[m[0]:m[1]])
				}
			}
			for _, s := range sn.Highlights {
				hl := sn.Text[s[0]:s[1]]
				if !slices.ContainsFunc(sn.Matches, func(m [2]int) bool { return string(data[m[0]:m[1]]) == hl }) {
					t.Errorf("%q: highlight %q is not one of the file's matches", q, hl)
				}
			}
		}
	}
	// The bigrams of a longer Chinese query are marked as one run.
	hits, _ := ix.Search(t.Context(), Request{Query: "让笔记彼此相连"})
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet.Rendered, "**让笔记彼此相连**") {
		t.Errorf("long Chinese query: %+v", hits)
	}
	hits, _ = ix.Search(t.Context(), Request{Query: "反向链接"})
	if want := "双向链接让笔记彼此相连。**反向链接**面板列出链接到当前笔记的其他笔记。 "; hits[0].Snippet.Rendered != want {
		t.Errorf("rendered %q, want %q", hits[0].Snippet.Rendered, want)
	}
}

func TestPersistAndReopen(t *testing.T) {
	dir := writeVault(t, small)
	_, ix, st := openIndex(t, dir, Options{})
	if st.Loaded || st.Notes != len(small) || !st.Saved {
		t.Fatalf("first open: %+v", st)
	}
	ix.Close()
	// Unchanged: nothing is read again.
	_, ix2, st := openIndex(t, dir, Options{})
	if !st.Loaded || st.Reread != 0 || st.Notes != len(small) {
		t.Fatalf("reopen: %+v", st)
	}
	if got := search(t, ix2, Request{Query: "lovelace"}); len(got) != 1 {
		t.Fatalf("reopened index finds %v", got)
	}
	ix2.Close()
	// One note edited, one removed, one added, one touched without a change.
	edit := filepath.Join(dir, "notes/engines.md")
	if err := os.WriteFile(edit, []byte("Jacquard looms.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "中文/搜索.md"))
	os.WriteFile(filepath.Join(dir, "new.md"), []byte("Zuse built the Z3.\n"), 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "people/Ada Lovelace.md"), later, later)
	_, ix3, st := openIndex(t, dir, Options{})
	if st.Reread != 3 || st.Removed != 1 || st.Notes != len(small) {
		t.Fatalf("reopen after changes: %+v", st)
	}
	for q, want := range map[string][]string{"jacquard": {"notes/engines.md"}, "steam": nil, "搜索": nil, "zuse": {"new.md"}, "lovelace": {"people/Ada Lovelace.md"}} {
		got := search(t, ix3, Request{Query: q})
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q after reopen (-want +got):\n%s", q, diff)
		}
	}
}

func TestChangedIsAppliedOnNextQuery(t *testing.T) {
	dir := writeVault(t, small)
	_, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	os.WriteFile(filepath.Join(dir, "notes/engines.md"), []byte("Jacquard looms.\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "moved"), 0o755)
	os.Rename(filepath.Join(dir, "中文"), filepath.Join(dir, "moved/中文"))
	if got := search(t, ix, Request{Query: "jacquard"}); len(got) != 0 {
		t.Fatalf("the index changed before it was told: %v", got)
	}
	ix.Changed([]vpath.Path{"notes/engines.md", "中文", "moved"}, false)
	if got := search(t, ix, Request{Query: "jacquard"}); !slices.Equal(got, []string{"notes/engines.md"}) {
		t.Errorf("jacquard: %v", got)
	}
	if got := search(t, ix, Request{Query: "双向链接"}); !slices.Equal(got, []string{"moved/中文/双向链接.md"}) {
		t.Errorf("moved folder: %v", got)
	}
	// A rescan finds what nobody reported.
	os.WriteFile(filepath.Join(dir, "quiet.md"), []byte("Hollerith tabulators.\n"), 0o644)
	ix.Changed(nil, true)
	if got := search(t, ix, Request{Query: "hollerith"}); !slices.Equal(got, []string{"quiet.md"}) {
		t.Errorf("rescan: %v", got)
	}
}
