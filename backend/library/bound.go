package library

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// What the index keeps of one note at most. A note may hold more (a generated list
// of 500,000 links once took the app from 27 MB to 719 MB): the tools and the window
// read the note itself and see everything, the index — backlinks, the graph, link
// resolution of that note — keeps the first ones, and a warning names the note and
// what was cut (see Library.Truncated).
const (
	MaxLinksPerNote     = 10_000 // wikilinks, embeds and Markdown links
	MaxRelationsPerNote = 10_000
	MaxHeadingsPerNote  = 5_000
	MaxTagsPerNote      = 5_000
	MaxAliasesPerNote   = 1_000
	maxWarningsPerNote  = 100
)

// bound cuts what the index keeps of n to the limits above, and returns the warning
// saying what was cut (nil when nothing was). The kept strings are copied out of the
// parser's blocks, so that nothing of the cut part stays in memory.
func bound(n *note.Note) *note.Warning {
	var cut []string
	keep := func(have, limit int, what string) int {
		if have <= limit {
			return have
		}
		cut = append(cut, fmt.Sprintf("the first %d of %d %s", limit, have, what))
		return limit
	}
	links := keep(len(n.Links), MaxLinksPerNote, "links")
	rels := keep(len(n.Relations), MaxRelationsPerNote, "relations")
	heads := keep(len(n.Headings), MaxHeadingsPerNote, "headings")
	tags := keep(len(n.Tags), MaxTagsPerNote, "tags")
	aliases := keep(len(n.Aliases), MaxAliasesPerNote, "aliases")
	if len(n.Warnings) > maxWarningsPerNote {
		n.Warnings = slices.Clone(n.Warnings[:maxWarningsPerNote])
	}
	if len(cut) == 0 {
		return nil
	}
	n.Links = slices.Clone(n.Links[:links])
	for i := range n.Links {
		l := &n.Links[i]
		l.SetNames(l.Target(), l.Subpath(), l.Display()) // a copy of its own
	}
	n.Relations = slices.Clone(n.Relations[:rels])
	for i := range n.Relations {
		r := &n.Relations[i]
		r.Type, r.To = strings.Clone(r.Type), strings.Clone(r.To)
	}
	n.Headings = slices.Clone(n.Headings[:heads])
	for i := range n.Headings {
		n.Headings[i].Text = strings.Clone(n.Headings[i].Text)
	}
	n.Tags = slices.Clone(n.Tags[:tags])
	for i := range n.Tags {
		n.Tags[i].Name = strings.Clone(n.Tags[i].Name)
	}
	n.Aliases = slices.Clone(n.Aliases[:aliases])
	for i := range n.Aliases {
		n.Aliases[i] = strings.Clone(n.Aliases[i])
	}
	n.Summary = strings.Clone(n.Summary)
	n.EntityType = strings.Clone(n.EntityType)
	return &note.Warning{Message: "too large to index whole: the index keeps " + strings.Join(cut, ", ") +
		"; backlinks, the graph and search by link see only those (the note itself is whole, and renames still rewrite all its links)"}
}

// boundWarn bounds n (see bound), adding the warning to its warnings; it reports
// whether anything was cut.
func boundWarn(n *note.Note) bool {
	w := bound(n)
	if w == nil {
		return false
	}
	n.Warnings = append(n.Warnings, *w)
	return true
}

// noteCut records whether the index keeps only part of r's note; the caller holds
// l.mu.
func (l *Library) noteCut(r parsed) {
	if !r.cut {
		delete(l.cut, r.path)
		return
	}
	if l.cut == nil {
		l.cut = map[vpath.Path]bool{}
	}
	l.cut[r.path] = true
}

// Truncated lists, sorted, the notes of which the index keeps only a part (more links,
// relations, headings, tags or aliases than a note's limit): whoever must find every
// link to a note (a rename) reads these notes too.
func (l *Library) Truncated() []vpath.Path {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]vpath.Path, 0, len(l.cut))
	for p := range l.cut {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
