package graph

import (
	"testing"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// lnk returns a link of the given kind to target.
func lnk(kind note.LinkKind, target string) note.Link {
	l := note.Link{Kind: kind}
	l.SetNames(target, "", "")
	return l
}

// fmLink returns a wikilink to target in front matter, on the given line.
func fmLink(target string, line int32) note.Link {
	l := lnk(note.WikiLink, target)
	l.Line, l.InFrontMatter = line, true
	return l
}

// wiki returns a wikilink to target.
func wiki(target string) note.Link { return lnk(note.WikiLink, target) }

// embed returns an embed of target.
func embed(target string) note.Link { return lnk(note.Embed, target) }

// mdlink returns a Markdown link to the URL-decoded target.
func mdlink(target string) note.Link { return lnk(note.MarkdownLink, target) }

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
