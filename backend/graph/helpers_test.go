package graph

import (
	"testing"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// wiki returns a wikilink to target.
func wiki(target string) note.Link { return note.Link{Kind: note.WikiLink, Target: target} }

// embed returns an embed of target.
func embed(target string) note.Link { return note.Link{Kind: note.Embed, Target: target} }

// mdlink returns a Markdown link to the URL-decoded target.
func mdlink(target string) note.Link { return note.Link{Kind: note.MarkdownLink, Target: target} }

// withLinks returns a note holding links.
func withLinks(links ...note.Link) *note.Note { return &note.Note{Links: links} }

// build loads a graph from paths: ".md" paths become notes with the links in
// notes (or none), other paths attachments.
func build(t testing.TB, paths []string, notes map[string]*note.Note) *Graph {
	t.Helper()
	ns := map[vpath.Path]*note.Note{}
	var files []vpath.Path
	for _, s := range paths {
		p := mustPath(t, s)
		if n, ok := notes[s]; ok {
			ns[p] = n
			continue
		}
		files = append(files, p)
	}
	for s, n := range notes {
		ns[mustPath(t, s)] = n
	}
	g := New()
	g.Load(ns, files)
	return g
}

func mustPath(t testing.TB, s string) vpath.Path {
	t.Helper()
	p, err := vpath.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return p
}
