package tools

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/memotree/memotree/backend/graph"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// linkDest is where links to a note that moves (or is merged away) must point now.
type linkDest struct {
	path vpath.Path // the note they point at after the change
	// short allows the basename as link text (it stays unique after the change).
	short bool
	// heading, when set, is added as the subpath of links that have none, and the
	// original target becomes the display text of links that have none (merge).
	heading string
}

// relinker computes the edits that keep the links of one note pointing where they
// should after notes move.
type relinker struct {
	g *graph.Graph
	// moved maps the current path of every note that moves to where links to it
	// must point.
	moved map[vpath.Path]linkDest
}

// relink returns the edits to the note at from (content src, parsed as n) so that its
// links and relations to moved notes point at their new place, and, when the note
// itself will live at at (at != from), so that its other links still resolve to the
// note they resolve to now. bodyOnly limits the edits to the body. problems lists the
// links that could not be rewritten.
func (r relinker) relink(from, at vpath.Path, src []byte, n *note.Note, bodyOnly bool) (edits []note.Edit, problems []string) {
	fmLines := map[int]bool{}
	for i := range n.Links {
		l := &n.Links[i]
		if l.InFrontMatter {
			fmLines[l.Line] = true
		}
		if strings.TrimSpace(l.Target) == "" || (bodyOnly && l.Start < n.BodyStart) {
			continue
		}
		d, ok := r.destOf(from, at, l.Target, l.Kind == note.MarkdownLink)
		if !ok {
			continue
		}
		if l.Start < 0 {
			problems = append(problems, fmt.Sprintf("%s line %d: a link to %s could not be located to rewrite", from.Name(), l.Line, d.path.Name()))
			continue
		}
		if l.InFrontMatter {
			d.heading = ""
		}
		if text := rewriteLink(src[l.Start:l.End], l, r.text(d, l.Target), d.heading); text != string(src[l.Start:l.End]) {
			edits = append(edits, note.Edit{Start: l.Start, End: l.End, New: text})
		}
	}
	if bodyOnly {
		return edits, problems
	}
	for _, rel := range n.Relations {
		if fmLines[rel.Line] {
			continue // written as "[[...]]": rewritten with the links
		}
		d, ok := r.destOf(from, at, note.StripLink(rel.To), false)
		if !ok {
			continue
		}
		if e, ok := relationEdit(src, rel, r.text(linkDest{path: d.path, short: d.short}, rel.To)); ok {
			if e.New != string(src[e.Start:e.End]) {
				edits = append(edits, e)
			}
		} else {
			problems = append(problems, fmt.Sprintf("%s line %d: the relation to %s could not be located to rewrite", from.Name(), rel.Line, d.path.Name()))
		}
	}
	return edits, problems
}

// destOf says where a link written in the note at from must point: ok is false when
// it needs no change.
func (r relinker) destOf(from, at vpath.Path, target string, markdown bool) (linkDest, bool) {
	resolve := r.g.Resolve
	if markdown {
		resolve = r.g.ResolveMarkdown
	}
	dst, ok := resolve(from, target)
	if !ok {
		return linkDest{}, false
	}
	if d, hit := r.moved[dst]; hit {
		return d, true
	}
	if at == from {
		return linkDest{}, false
	}
	if after, ok := resolve(at, target); ok && after == dst {
		return linkDest{}, false
	}
	return linkDest{path: dst}, true
}

// text is the link target to write for d, given the target as it was written: the
// basename when the old link was a basename and the new one stays unique, else the
// full name; ".md" is kept if it was written.
func (r relinker) text(d linkDest, old string) string {
	name := d.path.Name()
	if d.short && !strings.Contains(old, "/") {
		name = name[strings.LastIndexByte(name, '/')+1:]
	}
	if strings.HasSuffix(strings.ToLower(old), ".md") && d.path.IsNote() {
		name += d.path.Ext()
	}
	return name
}

// rewriteLink returns the new text of one link whose source text is span; heading
// is as for rewriteWiki.
func rewriteLink(span []byte, l *note.Link, target, heading string) string {
	if l.Kind == note.MarkdownLink {
		return rewriteMarkdownDest(span, target)
	}
	return rewriteWiki(span, l, target, heading)
}

// rewriteWiki replaces the target of a wikilink or embed, leaving every other byte as
// written; heading, when set and the link has no subpath, is added with the old
// target as display text.
func rewriteWiki(span []byte, l *note.Link, target, heading string) string {
	open := 2
	if l.Kind == note.Embed {
		open = 3
	}
	if heading == "" && len(span) >= open && bytes.HasPrefix(span[open:], []byte(l.Target)) {
		return string(span[:open]) + target + string(span[open+len(l.Target):])
	}
	sub, display := l.Subpath, l.Display
	if heading != "" && sub == "" {
		sub = heading
		if display == "" && l.Kind != note.Embed {
			display = l.Target
		}
	}
	return note.FormatWikiLink(target, sub, display, l.Kind == note.Embed, l.EscapedPipe)
}

// rewriteMarkdownDest replaces the path of a Markdown link's destination, keeping its
// text, fragment, title and angle brackets.
func rewriteMarkdownDest(span []byte, target string) string {
	s := string(span)
	open := markdownDestStart(s)
	if open < 0 {
		return s
	}
	rest := s[open:]
	var dest, tail string
	if strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return s
		}
		dest, tail = rest[1:end], rest[end:]
		if i := strings.IndexByte(dest, '#'); i >= 0 {
			tail = dest[i:] + tail
		}
		return s[:open] + "<" + target + tail
	}
	end := strings.IndexAny(rest, " \t)")
	if end < 0 {
		end = len(rest)
	}
	dest, tail = rest[:end], rest[end:]
	if i := strings.IndexByte(dest, '#'); i >= 0 {
		tail = dest[i:] + tail
	}
	return s[:open] + (&url.URL{Path: target}).EscapedPath() + tail
}

// markdownDestStart returns the offset of the destination in "[text](dest)": just
// after the "(" following the closing bracket of the text.
func markdownDestStart(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 && i+1 < len(s) && s[i+1] == '(' {
				return i + 2
			}
		}
	}
	return -1
}

// relationEdit replaces a plain "relation to" value on its line.
func relationEdit(src []byte, rel note.Relation, name string) (note.Edit, bool) {
	start, end := entLineSpan(src, rel.Line)
	if start < 0 {
		return note.Edit{}, false
	}
	line := string(src[start:end])
	from := strings.Index(line, "relation to")
	if from < 0 {
		from = 0
	}
	old := strings.TrimSpace(rel.To)
	i := strings.Index(line[from:], old)
	if i < 0 {
		return note.Edit{}, false
	}
	at := start + from + i
	return note.Edit{Start: at, End: at + len(old), New: name}, true
}

// lineSpan returns the byte span of the 1-based line n of src, without its line break.
func entLineSpan(src []byte, n int) (int, int) {
	start := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src[start:], '\n')
		if j < 0 {
			return -1, -1
		}
		start += j + 1
	}
	end := bytes.IndexByte(src[start:], '\n')
	if end < 0 {
		return start, len(src)
	}
	return start, start + end
}

// uniqueBase reports whether links by basename to the note that will live at p
// resolve to it: no other note (besides was, the note's current path) has its
// basename.
func uniqueBase(g *graph.Graph, p vpath.Path, was ...vpath.Path) bool {
	base := p.Name()[strings.LastIndexByte(p.Name(), '/')+1:]
	q, err := g.Lookup(base)
	if err != nil {
		return errors.Is(err, graph.ErrNotFound)
	}
	if q == p {
		return true
	}
	for _, w := range was {
		if q == w {
			return true
		}
	}
	qb := q.Name()[strings.LastIndexByte(q.Name(), '/')+1:]
	return !strings.EqualFold(qb, base) // an alias matched, not a basename
}
