package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"path"
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
			fmLines[int(l.Line)] = true
		}
		if strings.TrimSpace(l.Target()) == "" || (bodyOnly && int(l.Start) < n.BodyStart) {
			continue
		}
		md := l.Kind.IsMarkdown()
		d, was, ok := r.destOf(from, at, l.Target(), md)
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
		target := r.text(d, linkForm(from, l.Target(), was, md), at)
		text, ok := rewriteLink(src[l.Start:l.End], l, target, d.heading)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s line %d: a link to %s could not be read back to rewrite", from.Name(), l.Line, d.path.Name()))
			continue
		}
		if text != string(src[l.Start:l.End]) {
			edits = append(edits, note.Edit{Start: int(l.Start), End: int(l.End), New: text})
		}
	}
	if bodyOnly {
		return edits, problems
	}
	for _, rel := range n.Relations {
		if fmLines[rel.Line] {
			continue // written as "[[...]]": rewritten with the links
		}
		to := note.StripLink(rel.To)
		d, was, ok := r.destOf(from, at, to, false)
		if !ok {
			continue
		}
		if e, ok := relationEdit(src, rel, r.text(linkDest{path: d.path, short: d.short}, linkForm(from, to, was, false), at)); ok {
			if e.New != string(src[e.Start:e.End]) {
				edits = append(edits, e)
			}
		} else {
			problems = append(problems, fmt.Sprintf("%s line %d: the relation to %s could not be located to rewrite", from.Name(), rel.Line, d.path.Name()))
		}
	}
	return edits, problems
}

// destOf says where a link written in the note at from must point, and where it
// points now: ok is false when it needs no change.
func (r relinker) destOf(from, at vpath.Path, target string, markdown bool) (linkDest, vpath.Path, bool) {
	resolve := r.g.Resolve
	if markdown {
		resolve = r.g.ResolveMarkdown
	}
	dst, ok := resolve(from, target)
	if !ok {
		return linkDest{}, "", false
	}
	if d, hit := r.moved[dst]; hit {
		return d, dst, true
	}
	if at == from {
		return linkDest{}, "", false
	}
	if after, ok := resolve(at, target); ok && after == dst {
		return linkDest{}, "", false
	}
	return linkDest{path: dst}, dst, true
}

// text is the link target to write for d in a note that will live at at, in the form
// the old link was written: a basename stays a basename when it stays unique (else
// the note's full name), a vault path stays a vault path ("/" kept), a relative path
// stays relative to the note's folder ("./" kept); ".md" is kept if it was written.
func (r relinker) text(d linkDest, f form, at vpath.Path) string {
	name := d.path.Name()
	switch f.kind {
	case formShortest:
		if d.short {
			name = name[strings.LastIndexByte(name, '/')+1:]
		}
	case formAbsolute:
		if f.slash {
			name = "/" + name
		}
	case formRelative:
		name = relativePath(at.Dir(), name)
		if f.dot && !strings.HasPrefix(name, "../") {
			name = "./" + name
		}
	}
	if f.md && d.path.IsNote() {
		name += d.path.Ext()
	}
	return name
}

// The forms a link's path is written in (Obsidian's "New link format": shortest path
// when possible, relative path to file, absolute path in vault).
const (
	formShortest = iota // a basename
	formRelative        // relative to the linking note's folder
	formAbsolute        // from the vault's root
)

// form is how a link's target was written.
type form struct {
	kind  int
	dot   bool // relative, written with a leading "./"
	slash bool // absolute, written with a leading "/"
	md    bool // ".md" written
}

// linkForm tells the form of target, written in the note at from and resolving to
// was. A Markdown link's path that names was from the note's folder is relative.
func linkForm(from vpath.Path, target string, was vpath.Path, markdown bool) form {
	t := strings.TrimSpace(target)
	f := form{md: strings.HasSuffix(strings.ToLower(t), ".md")}
	switch {
	case strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../"):
		f.kind, f.dot = formRelative, strings.HasPrefix(t, "./")
	case strings.HasPrefix(t, "/"):
		f.kind, f.slash = formAbsolute, true
	case !strings.Contains(t, "/"):
		f.kind = formShortest
	case markdown && from.Dir() != "" && sameNote(path.Join(string(from.Dir()), t), was):
		f.kind = formRelative
	default:
		f.kind = formAbsolute
	}
	return f
}

// sameNote reports whether the vault path p (with or without ".md") names the note q,
// ignoring case as link resolution does.
func sameNote(p string, q vpath.Path) bool {
	return strings.EqualFold(p, string(q)) || strings.EqualFold(p+".md", string(q))
}

// relativePath returns the path of target (a vault path) from the folder dir, with
// ".." for each folder to climb.
func relativePath(dir vpath.Path, target string) string {
	from := []string{}
	if dir != "" {
		from = strings.Split(string(dir), "/")
	}
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	up := strings.Repeat("../", len(from)-i)
	return up + strings.Join(to[i:], "/")
}

// rewriteLink returns the new text of one link whose source text is span; heading
// is as for rewriteWiki. ok is false when the link's text could not be read back to
// rewrite it.
func rewriteLink(span []byte, l *note.Link, target, heading string) (string, bool) {
	if l.Kind.IsMarkdown() {
		if l.Subpath() != "" {
			heading = ""
		}
		return rewriteMarkdownDest(span, l, target, heading)
	}
	return rewriteWiki(span, l, target, heading), true
}

// rewriteWiki replaces the target of a wikilink or embed, leaving every other byte as
// written; heading, when set and the link has no subpath, is added with the old
// target as display text.
func rewriteWiki(span []byte, l *note.Link, target, heading string) string {
	open := 2
	if l.Kind == note.Embed {
		open = 3
	}
	// The target as written, which may differ from l.Target() by surrounding spaces.
	if heading == "" && len(span) >= open && bytes.HasPrefix(span[open:], []byte(l.Target())) {
		return string(span[:open]) + target + string(span[open+len(l.Target()):])
	}
	sub, display := l.Subpath(), l.Display()
	if heading != "" && sub == "" {
		sub = heading
		if display == "" && l.Kind != note.Embed {
			display = l.Target()
		}
	}
	return note.FormatWikiLink(target, sub, display, l.Kind == note.Embed, l.EscapedPipe)
}

// rewriteMarkdownDest replaces the path of the Markdown link l's destination, keeping
// its text, fragment, title, angle brackets and the blanks around it, and encoding the
// path as the old one was encoded; heading, when set, becomes the fragment. The
// destination is found as the parser found it (note.Link.DestSpan): a path with
// balanced parentheses or blanks before it is replaced whole.
func rewriteMarkdownDest(span []byte, l *note.Link, target, heading string) (string, bool) {
	start, end, angled, ok := l.DestSpan(span)
	if !ok {
		return string(span), false
	}
	s := string(span)
	dest, frag := s[start:end], ""
	if i := strings.IndexByte(dest, '#'); i >= 0 {
		dest, frag = dest[:i], dest[i:]
	} else if heading != "" && angled {
		frag = "#" + heading
	} else if heading != "" {
		frag = "#" + encodeMarkdownPath(heading, true)
	}
	if !angled {
		target = encodeMarkdownPath(target, hasEncodedNonASCII(dest))
	}
	return s[:start] + target + frag + s[end:], true
}

// encodeMarkdownPath writes a path for a Markdown link's destination outside angle
// brackets, as Obsidian writes it: spaces as %20, and the characters that would end
// or split the destination (%, #, <, >, parentheses, control characters) escaped;
// letters of any script are kept as they are unless nonASCII asks for them escaped
// too (the old link escaped them).
func encodeMarkdownPath(p string, nonASCII bool) string {
	var b strings.Builder
	for _, c := range []byte(p) {
		switch {
		case c <= ' ' || c == 0x7f || strings.IndexByte("%#<>()\\", c) >= 0 || c >= 0x80 && nonASCII:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hasEncodedNonASCII reports whether a destination escapes bytes outside ASCII
// ("%C3%A9"), as some tools write every non-ASCII letter.
func hasEncodedNonASCII(dest string) bool {
	for i := 0; i+2 < len(dest); i++ {
		if dest[i] == '%' && strings.IndexByte("89ABCDEFabcdef", dest[i+1]) >= 0 && isHex(dest[i+2]) {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

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
