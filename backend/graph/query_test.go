package graph

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// ignoreLink compares edges without their Link pointer.
var ignoreLink = cmpopts.IgnoreFields(Edge{}, "Link")

func TestOutlinksAndTypes(t *testing.T) {
	ada := &note.Note{
		Links: []note.Link{
			wiki("Charles Babbage"),
			embed("portrait.png"),
			mdlink("../notes/Engine.md"),
			wiki(""), // [[#Heading]]
			wiki("Nobody"),
			fmLink("Charles Babbage", 5),
			fmLink("Engine", 9),
		},
		Relations: []note.Relation{
			{Type: "collaborator of", To: "Charles Babbage", Line: 5},
			{Type: "", To: "[[Engine|the engine]]", Line: 7},
			{Type: "knows", To: "Ghost", Line: 8},
		},
	}
	g := build(t, []string{"people/Charles Babbage.md", "img/portrait.png", "notes/Engine.md"},
		map[string]*note.Note{"people/Ada.md": ada})

	want := []Edge{
		{From: "people/Ada.md", To: "people/Charles Babbage.md", Target: "Charles Babbage", Type: TypeLink, Resolved: true},
		{From: "people/Ada.md", To: "img/portrait.png", Target: "portrait.png", Type: TypeEmbed, Resolved: true},
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "../notes/Engine.md", Type: TypeLink, Resolved: true},
		{From: "people/Ada.md", Target: "Nobody", Type: TypeLink},
		// Line 5 carries the relation: not a separate edge. Line 9 is a plain property link.
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "Engine", Type: TypeLink, Resolved: true},
		{From: "people/Ada.md", To: "people/Charles Babbage.md", Target: "Charles Babbage", Type: "collaborator of", Resolved: true},
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "[[Engine|the engine]]", Type: TypeRelation, Resolved: true},
		{From: "people/Ada.md", Target: "Ghost", Type: "knows"},
	}
	got := g.Outlinks("people/Ada.md")
	if diff := cmp.Diff(want, got, ignoreLink); diff != "" {
		t.Errorf("Outlinks (-want +got):\n%s", diff)
	}
	if got[0].Link != &ada.Links[0] || got[5].Link != nil {
		t.Errorf("Link must point at the note's link for links and be nil for relations")
	}

	wantStats := Stats{Notes: 3, Files: 4, Links: 7, Resolved: 6, Unresolved: 1, Relations: 3}
	if diff := cmp.Diff(wantStats, g.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	wantBack := []Edge{
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "../notes/Engine.md", Type: TypeLink, Resolved: true},
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "Engine", Type: TypeLink, Resolved: true},
		{From: "people/Ada.md", To: "notes/Engine.md", Target: "[[Engine|the engine]]", Type: TypeRelation, Resolved: true},
	}
	if diff := cmp.Diff(wantBack, g.Backlinks("notes/Engine.md"), ignoreLink); diff != "" {
		t.Errorf("Backlinks (-want +got):\n%s", diff)
	}
	wantUnresolved := []Edge{
		{From: "people/Ada.md", Target: "Nobody", Type: TypeLink},
		{From: "people/Ada.md", Target: "Ghost", Type: "knows"},
	}
	if diff := cmp.Diff(wantUnresolved, g.Unresolved(), ignoreLink); diff != "" {
		t.Errorf("Unresolved (-want +got):\n%s", diff)
	}
	if n := len(g.Edges()); n != 6 {
		t.Errorf("len(Edges()) = %d, want 6", n)
	}
}

func TestFilesNotesAndSetFile(t *testing.T) {
	g := New()
	g.SetNote("b.md", withLinks(wiki("a.png")))
	g.SetFile("a.png")
	g.SetFile("empty.md")
	g.SetNote(".obsidian/workspace.md", withLinks(wiki("b")))
	g.SetFile(".git/HEAD")
	if diff := cmp.Diff([]vpath.Path{"a.png", "b.md", "empty.md"}, g.Files()); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]vpath.Path{"b.md", "empty.md"}, g.Notes()); diff != "" {
		t.Errorf("Notes (-want +got):\n%s", diff)
	}
	if _, ok := g.Note("a.png"); ok {
		t.Errorf("Note(a.png) reported an attachment as a note")
	}
	if n, ok := g.Note("b.md"); !ok || len(n.Links) != 1 {
		t.Errorf("Note(b.md) = %v, %v", n, ok)
	}
	if got := g.Backlinks("a.png"); len(got) != 1 || got[0].From != "b.md" {
		t.Errorf("Backlinks(a.png) = %v", got)
	}
	g.SetFile("b.md") // content no longer known: its links go
	if got := g.Backlinks("a.png"); len(got) != 0 {
		t.Errorf("after SetFile(b.md), Backlinks(a.png) = %v", got)
	}
}

func TestTags(t *testing.T) {
	tags := func(names ...string) *note.Note {
		n := &note.Note{}
		for _, s := range names {
			n.Tags = append(n.Tags, note.Tag{Name: s})
		}
		return n
	}
	g := build(t, nil, map[string]*note.Note{
		"a.md": tags("Project/Alpha", "project/alpha/x", "#todo"),
		"b.md": tags("project", "TODO", "todo"),
		"c.md": tags("读书/小说"),
	})
	want := map[string]int{
		"Project": 2, "Project/Alpha": 1, "project/alpha/x": 1,
		"todo": 2, "读书": 1, "读书/小说": 1,
	}
	if diff := cmp.Diff(want, g.Tags()); diff != "" {
		t.Errorf("Tags (-want +got):\n%s", diff)
	}
	if got := g.TagCount(); got != len(want) {
		t.Errorf("TagCount = %d, want %d", got, len(want))
	}
}

// TestTagCountRepeats counts tags that many notes repeat, in several spellings, so that
// every part of the notes TagCount (or Load) splits sees each name more than once, as
// Load counts them and again after a change.
func TestTagCountRepeats(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	notes := map[string]*note.Note{}
	names := []string{"Project/Alpha", "project/alpha/x", "#todo", "TODO", " todo ", "读书/小说", "Ärger", "ärger", "a//b/"}
	for i := range 2100 { // enough for TagCount to split them, and Load too
		n := &note.Note{}
		for j := range 4 {
			n.Tags = append(n.Tags, note.Tag{Name: names[(i+j)%len(names)]})
		}
		n.Tags = append(n.Tags, note.Tag{Name: fmt.Sprintf("only/%d", i%50)})
		notes[fmt.Sprintf("n%03d.md", i)] = n
	}
	g := build(t, nil, notes)
	if got, want := g.TagCount(), len(g.Tags()); got != want || want < 50 {
		t.Errorf("TagCount = %d, len(Tags()) = %d", got, want)
	}
	// Load counted them; a change has them counted again.
	before := g.TagCount()
	g.SetNote("new.md", &note.Note{Tags: []note.Tag{{Name: "Fresh/One"}, {Name: "todo"}}})
	if got, want := g.TagCount(), len(g.Tags()); got != want || got != before+2 {
		t.Errorf("after a note with two new tags, TagCount = %d, len(Tags()) = %d, before %d", got, want, before)
	}
}

func TestNeighbors(t *testing.T) {
	// a -> b -> c -> d, e -> a (relation "cites"), a embeds img.png.
	g := build(t, []string{"img.png"}, map[string]*note.Note{
		"a.md": withLinks(wiki("b"), embed("img.png")),
		"b.md": withLinks(wiki("c")),
		"c.md": withLinks(wiki("d")),
		"d.md": withLinks(wiki("a")),
		"e.md": {Relations: []note.Relation{{Type: "cites", To: "a"}}},
		"f.md": withLinks(wiki("missing")),
	})
	tests := []struct {
		name  string
		depth int
		types []string
		want  []vpath.Path
	}{
		{"depth 0", 0, nil, nil},
		{"depth 1 both directions", 1, nil, []vpath.Path{"b.md", "d.md", "e.md", "img.png"}},
		{"depth 2", 2, nil, []vpath.Path{"b.md", "d.md", "e.md", "img.png", "c.md"}},
		{"relation type only", 3, []string{"cites"}, []vpath.Path{"e.md"}},
		{"links only", 1, []string{TypeLink}, []vpath.Path{"b.md", "d.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, g.Neighbors("a.md", tt.depth, tt.types)); diff != "" {
				t.Errorf("Neighbors (-want +got):\n%s", diff)
			}
		})
	}
}

// EachEdge visits the edges Edges and Unresolved return, in their order, with the
// same source, target, text and type: the window's graph payload is built from it.
func TestEachEdgeMatchesEdges(t *testing.T) {
	rel := &note.Note{Relations: []note.Relation{{Type: " works at ", To: "Acme"}, {To: "Nowhere"}}, Links: []note.Link{wiki("a"), embed("pic.png"), wiki("missing"), wiki("#self")}}
	g := build(t, []string{"a.md", "b.md", "pic.png", "org/Acme.md"}, map[string]*note.Note{
		"a.md":        withLinks(wiki("b"), wiki("a"), mdlink("org/Acme.md"), wiki("gone")),
		"b.md":        rel,
		"org/Acme.md": withLinks(embed("pic.png"), wiki("b")),
	})
	type seen struct {
		from, to    vpath.Path
		target, typ string
	}
	for _, resolved := range []bool{true, false} {
		var want, got []seen
		list := g.Edges()
		if !resolved {
			list = g.Unresolved()
		}
		for _, e := range list {
			want = append(want, seen{e.From, e.To, e.Target, e.Type})
		}
		g.EachEdge(resolved, func(from, to vpath.Path, target, typ string) {
			got = append(got, seen{from, to, target, typ})
		})
		if len(want) < 2 {
			t.Fatalf("resolved=%v: the fixture has %d edges, want several", resolved, len(want))
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(seen{})); d != "" {
			t.Errorf("resolved=%v: EachEdge against Edges/Unresolved (-want +got):\n%s", resolved, d)
		}
	}
}
