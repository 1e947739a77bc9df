package uiapi_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
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
