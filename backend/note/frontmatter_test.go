package note

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const personNote = `---
entity type: person
aliases:
  - Ada
date created: 2025-10-26T10:00:00+08:00
rating: 5
relations:
  - relation type: collaborator of
    relation to: "[[Charles Babbage]]"
  - relation type: parent of
    relation to: Byron King
  - relation type: knows
    relation to: '[[Mary Somerville|Mary]]'
  - relation type: studied
    relation to: "[[Analytical Engine#Design]]"
tags: [history, "#math"]
summary: English mathematician; first published an algorithm.
---

Body [[wikilinks]].
`

func TestFrontMatterFields(t *testing.T) {
	n := Parse([]byte(personNote))
	if len(n.Warnings) != 0 {
		t.Fatalf("warnings: %v", n.Warnings)
	}
	if n.EntityType != "person" || n.Summary != "English mathematician; first published an algorithm." {
		t.Errorf("EntityType %q, Summary %q", n.EntityType, n.Summary)
	}
	if diff := cmp.Diff([]string{"Ada"}, n.Aliases); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Tag{{Name: "history"}, {Name: "math"}}, n.Tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	wantRel := []Relation{
		{Type: "collaborator of", To: "Charles Babbage", Line: 9},
		{Type: "parent of", To: "Byron King", Line: 11},
		{Type: "knows", To: "Mary Somerville", Line: 13},
		{Type: "studied", To: "Analytical Engine", Line: 15},
	}
	if diff := cmp.Diff(wantRel, n.Relations); diff != "" {
		t.Errorf("relations (-want +got):\n%s", diff)
	}
	if got := n.Properties["rating"]; got != 5 {
		t.Errorf("rating = %#v, want 5", got)
	}
	if got, ok := n.Properties["date created"].(time.Time); !ok || got.Year() != 2025 {
		t.Errorf("date created = %#v, want a 2025 time", n.Properties["date created"])
	}
	want := []span{
		{Lit: `[[Charles Babbage]]`, Target: "Charles Babbage", Line: 9, InFM: true},
		{Lit: `[[Mary Somerville|Mary]]`, Target: "Mary Somerville", Display: "Mary", Line: 13, InFM: true},
		{Lit: `[[Analytical Engine#Design]]`, Target: "Analytical Engine", Subpath: "Design", Line: 15, InFM: true},
		{Lit: "[[wikilinks]]", Target: "wikilinks", Line: 20},
	}
	if diff := cmp.Diff(want, spans(t, personNote)); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
}

func TestFrontMatterVariants(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		typ     string
		aliases []string
		tags    []string
	}{
		{"type fallback", "---\ntype: book\n---\n", "book", nil, nil},
		{"entity type wins", "---\ntype: book\nentity type: person\n---\n", "person", nil, nil},
		{"type not string", "---\ntype: 3\n---\n", "", nil, nil},
		{"alias string", "---\nalias: Ada\n---\n", "", []string{"Ada"}, nil},
		{"aliases block", "---\naliases:\n- A\n- B\n---\n", "", []string{"A", "B"}, nil},
		{"tags string", "---\ntags: one, two three #four\n---\n", "", nil, []string{"one", "two", "three"}},
		{"tags quoted string", "---\ntags: \"one, #two\"\n---\n", "", nil, []string{"one", "two"}},
		{"tag list", "---\ntag:\n  - '#a/b'\n  - c\n---\n", "", nil, []string{"a/b", "c"}},
		{"dots fence", "---\ntype: x\n...\n", "x", nil, nil},
		{"empty", "---\n---\n", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Parse([]byte(tt.src))
			if len(n.Warnings) != 0 {
				t.Fatalf("warnings: %v", n.Warnings)
			}
			var tags []string
			for _, tg := range n.Tags {
				tags = append(tags, tg.Name)
			}
			got := []any{n.EntityType, n.Aliases, tags}
			if diff := cmp.Diff([]any{tt.typ, tt.aliases, tt.tags}, got); diff != "" {
				t.Errorf("type, aliases, tags (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFrontMatterLinkSpans(t *testing.T) {
	src := "---\n" +
		"up: [[Parent]]\n" +
		"plain: see [[A]] and [[B|b]]\n" +
		"single: '[[C]] it''s'\n" +
		"double: \"[[D#h]]\"\n" +
		"escaped: \"[[E\\u0041]]\"\n" +
		"list:\n  - \"[[F]]\"\n  - \"![[G.png]]\"\n" +
		"nested:\n  deep:\n    - x: \"[[H]]\"\n" +
		"folded: >\n  [[I]]\n" +
		"# comment [[NotALink]]\n" +
		"---\n"
	want := []span{
		{Lit: "[[A]]", Target: "A", Line: 3, InFM: true},
		{Lit: "[[B|b]]", Target: "B", Display: "b", Line: 3, InFM: true},
		{Lit: "[[C]]", Target: "C", Line: 4, InFM: true},
		{Lit: "[[D#h]]", Target: "D", Subpath: "h", Line: 5, InFM: true},
		{Target: "EA", Line: 6, InFM: true},
		{Lit: "[[F]]", Target: "F", Line: 8, InFM: true},
		{Lit: "![[G.png]]", Kind: Embed, Target: "G.png", Line: 9, InFM: true},
		{Lit: "[[H]]", Target: "H", Line: 12, InFM: true},
		{Lit: "[[I]]", Target: "I", Line: 14, InFM: true},
	}
	// "up: [[Parent]]" is a nested YAML list, not a string, so it holds no link.
	if diff := cmp.Diff(want, spans(t, src)); diff != "" {
		t.Errorf("front matter links (-want +got):\n%s", diff)
	}
}

// TestFastYAMLMatchesV3 checks the fast front matter path against YAML v3 on the
// shapes it accepts.
func TestFastYAMLMatchesV3(t *testing.T) {
	for _, src := range fastYAMLSeeds {
		checkFastYAML(t, []byte(src))
	}
	if fastFrontMatter([]byte(personNote), 4, len(personNote)-len("---\n\nBody [[wikilinks]].\n")) == nil {
		t.Errorf("the fast path refused the typical note")
	}
}

// TestFastYAMLReadsOrdinaryShapes checks that the front matter people write stays on
// the fast path (YAML v3 reads the same notes several times more slowly: the index's
// speed on a vault must not depend on how its front matter is written).
func TestFastYAMLReadsOrdinaryShapes(t *testing.T) {
	for _, src := range []string{
		personNote[4 : len(personNote)-len("---\n\nBody [[wikilinks]].\n")],
		"type: person\naliases: [Quiet 12, \"Harbour: north\"]\ntags: [topic/the, area]\ncreated: 2024-07-10\nmodified: 2024-09-12T04:28:00\n",
		"related: [\"[[A b]]\", \"[[C#d|e]]\"]\nrelations:\n  - type: part of\n    to: \"[[X]]\"\n",
		"description: >-\n  one two\n  three\nsource:\n  url: https://example.org/x\n  author: Jane Doe\nrating: 4\npublish: true\ncssclasses: []\n",
		"d: |\n  one\n  two\ne: >\n    x\n    y\nf: |-\n  z\n",
		"a:\n  b:\n    c: 1\n    d: [x, 'y z']\n  e: f\ng: h\n",
		"l:\n- k: 1\n  m:\n    n: 2\n- k: 3\n  o:\n  - p\n",
		"q: \"a\\\"b\\\\c\\n\\t\"\nr: 'it''s'\n",
		"中文: 值\ntags: [主题/历史, 笔记]\ncreated: 2024-01-02\nsummary: 问题历程。\n",
		"a: 1\r\nb: [x, \"[[y]]\"]\r\nc: |\r\n  z\r\n",
	} {
		if fastFrontMatter([]byte(src), 0, len(src)) == nil {
			t.Errorf("the fast path refused %q", src)
		}
	}
}

// fastYAMLSeeds are front matter blocks (without fences) for the fast path tests.
var fastYAMLSeeds = []string{
	// Found by FuzzFastYAML: a key past YAML's 1024-character limit for implicit keys.
	"a:" + strings.Repeat("m", 1100) + "  b:\n",
	strings.Repeat("k", 1030) + ": v\n",
	"r:\n  - " + strings.Repeat("k", 1030) + ": v\n",
	personNote[4 : len(personNote)-len("---\n\nBody [[wikilinks]].\n")],
	"a: 1\nb: 012\nc: 1.5\nd: true\ne: null\nf: ~\ng: -3\nh: 2025-01-02\ni: 2025-13-40\nj: yes\n",
	"k: v # comment\n# c\n\nl: 'q' # c\nm: \"x#y\"\nn: a#b\n",
	"list:\n- a\n- 2\n-  c\nempty: []\nflow: [1, two, 'three', \"four\"]\n",
	"r:\n  - relation type: t\n    relation to: \"[[X]]\"\n  - relation to: y\n    extra: 3\n",
	"key:\nnext: 1\n",
	"a: b: c\n",
	"a: [b, [c]]\n",
	"a:\n  b: 1\n",
	"a: \"x\\ny\"\n",
	"a: 'it''s'\n",
	"a:\n  - x\n   - y\n",
	"a: x\n  y\n",
	"中文: 值\nb: 中 文\n",
	"a: 1\r\nb: 2\r\n",
	"cssclasses:\n  - wide\npublish: true\npermalink: x/y\ncreated: 2024-01-01 10:00\nat: 2024-01-01 10:00:05\n",
	"description: >-\n  folded\n  text\n",
	"n: 0x1F\nm: 1_000\nf: 1e3\ninf: .inf\nneg: -1\nver: 1.2.3\nzip: 01234\n",
	"url: https://example.com/a#b\nmail: a@b.c\npath: C:\\x\nemoji: 😀 ok\n",
	"tags: []\naliases: [\"A, B\", 'C']\n",
	"relations:\n- relation type: a\n  relation to: b\n# c\n- relation type: c\n  relation to: \"[[d]]\"\n",
	// The shapes of bench/vaultgen's flow vault, and their neighbours.
	"type: person\naliases: [Quiet 12, \"Harbour: north\"]\ntags: [topic/the, area]\ncreated: 2024-07-10\nmodified: 2024-09-12T04:28:00\n",
	"related: [\"[[A b]]\", \"[[C#d|e]]\"]\nrelations:\n  - type: part of\n    to: \"[[X]]\"\n  - type: see also\n    to: \"[[Y]]\"\n",
	"description: >-\n  one two\n  three\nsource:\n  url: https://example.org/x\n  author: Jane Doe\nrating: 4\npublish: true\ncssclasses: []\n",
	"d: |\n  one\n  two\ne: >\n    x\n    y\nf: |-\n  z\n",
	"d: |\n  one\n\n  two\n", "d: >\n  one\n   two\n", "d: |+\n  one\n", "d: |2\n  one\n", "d: |\nx: 1\n", "d: |\n  one",
	"a:\n  b:\n    c: 1\n    d: [x, 'y z']\n  e: f\ng: h\n",
	"a:\n  b: 1\n   c: 2\n", "a:\n  - x\n  b: 1\n", "- a\n", "a:\n  b: 1\n c: 2\n",
	"l:\n- k: 1\n  m:\n    n: 2\n- k: 3\n  o:\n  - p\n",
	"q: \"a\\\"b\\\\c\\n\\t\\/\"\nr: 'it''s'\ns: \"x\\u0041\"\nt: 'a\\b'\n",
	"f: [a, b,]\ng: [a b, \"c, d\", 'e]f']\nh: [ a , b ]\ni: [a, [b]]\nj: [it's]\n",
	"n: 1.5\no: .5\np: -2e3\nq: 0x1F\nr: 0o17\ns: 0b101\nt: 1_000\nu: +7\nv: 1e400\nw: .inf\nx: -.Inf\ny: .nan\nz: 012\n",
	"y: yes\nn: No\nt: True\nf: FALSE\nnl: ~\nv: 2024-1-2 3:04:05\nw: 2024-01-02T03:04:05+02:00\nx: 2024-02-30\n",
}

// checkFastYAML compares the fast path with YAML v3 when the fast path accepts src.
func checkFastYAML(t *testing.T, src []byte) {
	t.Helper()
	root := fastFrontMatter(src, 0, len(src))
	if root == nil {
		return
	}
	fm := fmBounds{ok: true, yamlStart: 0, yamlEnd: len(src), closeLine: 1 << 30}
	ref, err := decodeFrontMatter(src, fm)
	if err != nil || ref == nil {
		t.Fatalf("fast path accepted %q, YAML v3 says %v", src, err)
	}
	want, err := decodeProps(ref)
	if err != nil {
		t.Fatalf("fast path accepted %q, YAML v3 decode says %v", src, err)
	}
	got, ok := fastProps(root)
	if !ok {
		return
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("properties of %q (-v3 +fast):\n%s", src, diff)
	}
	if diff := cmp.Diff(positions(ref), positions(root)); diff != "" {
		t.Errorf("node positions of %q (-v3 +fast):\n%s", src, diff)
	}
}

// positions lists kind, value, line and column of every node but null scalars.
func positions(n *yamlNode) []string {
	var out []string
	var walk func(n *yamlNode)
	walk = func(n *yamlNode) {
		if n.ShortTag() != "!!null" {
			out = append(out, fmtNode(n))
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}
