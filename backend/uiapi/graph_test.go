package uiapi_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/uiapi"
	"github.com/memotree/memotree/backend/workspace"
)

func TestGraphIsCompactAndComplete(t *testing.T) {
	a := apiWith(t, map[string]string{
		"people/Ada.md":     "---\nentity type: person\naliases: [Countess]\nrelations:\n  - relation type: collaborator of\n    relation to: \"[[Charles]]\"\n---\nSee [[Charles]] and [[Ghost]] and [[Ada]].\n",
		"people/Charles.md": "---\ntype: person\n---\n![[Engine]]\n",
		"Engine.md":         "A machine. [[Ghost]] [[Phantom]]\n",
	})
	g, err := a.Graph("v")
	if err != nil {
		t.Fatal(err)
	}
	n := len(g.Nodes)
	if len(g.Labels) != n || len(g.NodeTypes) != n || len(g.Edges)%3 != 0 {
		t.Fatalf("parallel lists differ: %d nodes, %d labels, %d types, %d edge numbers", n, len(g.Labels), len(g.NodeTypes), len(g.Edges))
	}
	if g.Types[0] != "" {
		t.Errorf("Types[0] = %q, want \"\"", g.Types[0])
	}
	node := map[string]string{}
	for i, id := range g.Nodes {
		node[id] = fmt.Sprintf("%s|%s|unresolved=%v", g.Labels[i], g.Types[g.NodeTypes[i]], i >= g.FirstUnresolved)
	}
	wantNodes := map[string]string{
		"people/Ada.md":      "Ada|person|unresolved=false",
		"people/Charles.md":  "Charles|person|unresolved=false",
		"Engine.md":          "Engine||unresolved=false",
		"unresolved:Ghost":   "Ghost||unresolved=true",
		"unresolved:Phantom": "Phantom||unresolved=true",
	}
	if d := cmp.Diff(wantNodes, node); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	var edges []string
	for i := 0; i < len(g.Edges); i += 3 {
		edges = append(edges, g.Nodes[g.Edges[i]]+" -"+g.Relations[g.Edges[i+2]]+"-> "+g.Nodes[g.Edges[i+1]])
	}
	slices.Sort(edges)
	want := []string{
		"Engine.md -links to-> unresolved:Ghost",
		"Engine.md -links to-> unresolved:Phantom",
		"people/Ada.md -collaborator of-> people/Charles.md",
		"people/Ada.md -links to-> people/Charles.md",
		"people/Ada.md -links to-> unresolved:Ghost",
		"people/Charles.md -embeds-> Engine.md",
	}
	if d := cmp.Diff(want, edges); d != "" {
		t.Errorf("edges, self-links left out (-want +got):\n%s", d)
	}
	ada := slices.Index(g.Nodes, "people/Ada.md")
	if d := cmp.Diff(map[int][]string{ada: {"Countess"}}, g.Aliases); d != "" {
		t.Errorf("aliases (-want +got):\n%s", d)
	}
	if _, err := a.Graph("nope"); err == nil {
		t.Error("an unknown library is not reported")
	}
}

// The encoded payload is made once per graph generation: a second call reuses it, a
// change to the vault (through the editor's save path) gives a new one, and the reused
// encoding is the same JSON a fresh encoding of the fields writes.
func TestGraphPayloadIsReusedUntilTheGraphChanges(t *testing.T) {
	a := apiWith(t, map[string]string{
		"Ada.md":     "---\naliases: [Countess]\n---\nSee [[Charles]] and [[Ghost]].\n",
		"Charles.md": "Plain.\n",
	})
	first, err := a.Graph("v")
	if err != nil {
		t.Fatal(err)
	}
	b1, err := json.Marshal(first)
	if err != nil {
		t.Fatal(err)
	}
	type plain uiapi.GraphData // the fields only, encoded afresh
	fresh, err := json.Marshal(plain(first))
	if err != nil {
		t.Fatal(err)
	}
	if string(b1) != string(fresh) {
		t.Fatalf("the cached encoding differs from the fields':\n%s\n%s", b1, fresh)
	}
	if first.Library != "v" {
		t.Errorf("Library = %q, want v", first.Library)
	}
	// "" is the default library: the same payload, named.
	again, _ := a.Graph("")
	if again.Library != "v" {
		t.Errorf(`Graph("").Library = %q, want v`, again.Library)
	}
	if e1, e2 := uiapi.EncodedGraph(first), uiapi.EncodedGraph(again); len(e1) == 0 || &e1[0] != &e2[0] {
		t.Fatal("a second call without a change built and encoded the graph again")
	}
	if _, err := a.SaveNote("v", "Bob.md", "Knows [[Ada]].\n", ""); err != nil {
		t.Fatal(err)
	}
	changed, err := a.Graph("v")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(changed.Nodes, "Bob.md") {
		t.Fatalf("the graph after a save has no Bob.md: %v", changed.Nodes)
	}
	if e1, e3 := uiapi.EncodedGraph(first), uiapi.EncodedGraph(changed); &e1[0] == &e3[0] {
		t.Fatal("the graph after a save reuses the old encoding")
	}
	b3, _ := json.Marshal(changed)
	if !strings.Contains(string(b3), `"Bob.md"`) {
		t.Fatalf("the encoded graph after a save has no Bob.md: %s", b3)
	}
	// A hand-made GraphData (no cached encoding) encodes its fields.
	hand, err := json.Marshal(uiapi.GraphData{Nodes: []string{"x.md"}})
	if err != nil || !strings.Contains(string(hand), `"nodes":["x.md"]`) {
		t.Fatalf("hand-made GraphData: %s %v", hand, err)
	}
}

// With WarmGraph, the default library's graph payload is built before its search
// index is started: built together on the same cores, the index made the window's
// first graph wait (at 100k notes, seconds).
func TestWarmGraphBeforeTheSearchIndex(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.md": "[[b]] [[gone]]\n", "b.md": "[[a]]\n"})
	ws, err := workspace.Open(t.Context(), []workspace.Spec{{Name: "v", Path: dir}}, workspace.Options{Watch: true, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	cached := make(chan bool, 1)
	defer uiapi.SetWarmIndexes(func(a *uiapi.API) { cached <- uiapi.GraphCached(a, "v") })()
	uiapi.NewAPI(ws, uiapi.Options{WarmGraph: true})
	select {
	case ok := <-cached:
		if !ok {
			t.Fatal("the search indexes were started before the graph payload was built")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("WarmGraph never started the search indexes")
	}
}

// TestGraphEncodingIsEncodingJSONs holds the graph payload's hand-written encoder to
// the bytes encoding/json writes for the same fields: on a real graph (relations, tags,
// aliases, unresolved names, attachments), and on data made by hand with empty and nil
// lists and strings that JSON escapes.
func TestGraphEncodingIsEncodingJSONs(t *testing.T) {
	a := apiWith(t, map[string]string{
		"people/Ada.md":     "---\nentity type: person\naliases: [Countess, \"<b>&</b>\"]\ntags: [math, \"x/y\"]\nrelations:\n  - relation type: collaborator of\n    relation to: \"[[Charles]]\"\n---\nSee [[Charles]] and [[Ghost \\\"q\\\"]] and ![[diagram.png]].\n",
		"people/Charles.md": "---\ntype: person\n---\n![[Engine]] #tag\n",
		"Engine.md":         "A machine. [[Ghost]] [[Phantom]] [[Ünïcödé 名前]]\n",
		"diagram.png":       "png",
	})
	g, err := a.Graph("v")
	if err != nil {
		t.Fatal(err)
	}
	hand := []uiapi.GraphData{
		g,
		{},
		{Library: "a\"b\\c\u2028<>&", Nodes: []string{}, Labels: []string{"\x01", "é"}, NodeTypes: []int{}, Edges: []int{0, 1, 2, 1234567, -1, 0}, Aliases: map[int][]string{10: {"x"}, 2: nil}},
	}
	for i, d := range hand {
		want, err := uiapi.GraphJSONByReflection(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := uiapi.EncodeGraph(d)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("case %d: the encoder wrote\n%s\nencoding/json writes\n%s", i, got, want)
		}
		if i == 0 && string(uiapi.EncodedGraph(d)) != string(want) {
			t.Errorf("the payload Graph cached is\n%s\nencoding/json writes\n%s", uiapi.EncodedGraph(d), want)
		}
	}
}
