package graph

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

func TestLookup(t *testing.T) {
	g := build(t,
		[]string{"people/Charles Babbage.md", "work/Engine.md", "archive/Engine.md", "中文/笔记.md",
			"img/diagram.png", "projects/alpha/Plan.md", "projects/beta/Plan.md", "misc/Countess.md"},
		map[string]*note.Note{
			"people/Ada Lovelace.md": {Aliases: []string{"Ada", "Countess"}},
			"family/Augusta.md":      {Aliases: []string{"ada", "Gus"}},
		})
	tests := []struct {
		name       string
		want       vpath.Path
		err        error
		candidates []vpath.Path
		nearest    []string
	}{
		{name: "people/Ada Lovelace", want: "people/Ada Lovelace.md"},
		{name: "people/Ada Lovelace.md", want: "people/Ada Lovelace.md"},
		{name: "PEOPLE/ada lovelace", want: "people/Ada Lovelace.md"},
		{name: "/people/Ada Lovelace", want: "people/Ada Lovelace.md"},
		{name: "Ada Lovelace", want: "people/Ada Lovelace.md"},
		{name: " [[Ada Lovelace|the countess]] ", want: "people/Ada Lovelace.md"},
		{name: "Ada Lovelace#Life", want: "people/Ada Lovelace.md"},
		{name: `people\Charles Babbage`, want: "people/Charles Babbage.md"},
		{name: "笔记", want: "中文/笔记.md"},
		{name: "diagram.png", want: "img/diagram.png"},
		{name: "alpha/Plan", want: "projects/alpha/Plan.md"},
		{name: "work/engine", want: "work/Engine.md"},
		{name: "gus", want: "family/Augusta.md"},
		{name: "Countess", want: "misc/Countess.md"}, // a basename beats an alias
		{name: "Plan", err: ErrAmbiguous, candidates: []vpath.Path{"projects/alpha/Plan.md", "projects/beta/Plan.md"}},
		{name: "Engine.md", err: ErrAmbiguous, candidates: []vpath.Path{"archive/Engine.md", "work/Engine.md"}},
		{name: "ADA", err: ErrAmbiguous, candidates: []vpath.Path{"family/Augusta.md", "people/Ada Lovelace.md"}},
		{name: "Enigne", err: ErrNotFound, nearest: []string{"work/Engine", "archive/Engine"}},
		{name: "Lovelace", err: ErrNotFound, nearest: []string{"people/Ada Lovelace"}},
		{name: "Babage", err: ErrNotFound, nearest: []string{"people/Charles Babbage"}},
		{name: "ab", err: ErrNotFound, nearest: []string{"people/Charles Babbage"}},
		{name: "zzzzzzzz", err: ErrNotFound},
		{name: "", err: ErrNotFound},
		{name: "../x", err: ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := g.Lookup(tt.name)
			if tt.err == nil {
				if err != nil || got != tt.want {
					t.Fatalf("Lookup(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
				}
				return
			}
			var le *LookupError
			if !errors.Is(err, tt.err) || !errors.As(err, &le) {
				t.Fatalf("Lookup(%q) error = %v; want *LookupError wrapping %v", tt.name, err, tt.err)
			}
			if diff := cmp.Diff(tt.candidates, le.Candidates); diff != "" {
				t.Errorf("Candidates (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.nearest, le.Nearest); diff != "" {
				t.Errorf("Nearest (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLookupErrorMessage(t *testing.T) {
	g := build(t, []string{"a/Plan.md", "b/Plan.md", "Engine.md"}, nil)
	_, err := g.Lookup("plan")
	if msg := err.Error(); !strings.Contains(msg, "a/Plan, b/Plan") || !strings.Contains(msg, "full path") {
		t.Errorf("ambiguous message %q does not list the candidates", msg)
	}
	_, err = g.Lookup("Engin")
	if msg := err.Error(); !strings.Contains(msg, "nearest: Engine") {
		t.Errorf("not-found message %q does not suggest Engine", msg)
	}
}

func TestFolderSpellingsAndHasFolder(t *testing.T) {
	g := build(t, []string{"Notes/a.md", "Notes/Deep/b.md", "notes/c.md", "people.md", "img/x.png"}, nil)
	for dir, want := range map[string]bool{"Notes": true, "Notes/Deep": true, "notes": true, "NOTES": false,
		"Note": false, "people": false, "img": true, "Notes/Dee": false, "": true} {
		if got := g.HasFolder(dir); got != want {
			t.Errorf("HasFolder(%q) = %v, want %v", dir, got, want)
		}
	}
	if got := g.FolderSpellings("NOTES"); !slices.Equal(got, []string{"Notes", "notes"}) {
		t.Errorf("FolderSpellings(NOTES) = %v", got)
	}
	if got := g.FolderSpellings("notes/deep"); !slices.Equal(got, []string{"Notes/Deep"}) {
		t.Errorf("FolderSpellings(notes/deep) = %v", got)
	}
}
