package note

import (
	"bytes"
	"net/url"
	"strings"
)

// wikilink records the wikilink whose "[[" is at p and returns the offset after it.
// It fails when no "]]" closes it on the same line, when it is empty, or when another
// "[[" opens inside it (that one is tried next).
func (s *scanner) wikilink(p, end, first int) (int, bool) {
	src := s.src
	if s.noWikiClose == end {
		return 0, false
	}
	i := bytes.Index(src[p+2:end], []byte("]]"))
	if i < 0 {
		s.noWikiClose = end
		return 0, false
	}
	inner := src[p+2 : p+2+i]
	if i == 0 || bytes.Index(inner, []byte("[[")) >= 0 {
		return 0, false
	}
	start, stop := p, p+2+i+2
	kind := WikiLink
	if bangBefore(src, p, first) {
		start, kind = p-1, Embed
	}
	w, ok := splitWiki(aliasOf(src, start, stop))
	if !ok {
		return stop, true
	}
	l := w.link(s.strs)
	l.Kind, l.Start, l.End, l.Line = kind, int32(start), int32(stop), int32(s.line)
	s.n.Links = append(s.n.Links, l)
	return stop, true
}

// wikiParts are the parts of a wikilink literal; they share the literal's memory.
type wikiParts struct {
	target, subpath, display string
	escapedPipe              bool
}

// splitWiki reads a wikilink literal "[[...]]" or "![[...]]". It reports false when
// both target and subpath are empty.
func splitWiki(raw string) (w wikiParts, ok bool) {
	inner := strings.TrimPrefix(raw, "!")
	inner = inner[2 : len(inner)-2]
	ref := inner
	if bar := strings.IndexByte(inner, '|'); bar >= 0 {
		ref, w.display = inner[:bar], strings.TrimSpace(inner[bar+1:])
		if bar > 0 && inner[bar-1] == '\\' {
			ref, w.escapedPipe = inner[:bar-1], true
		}
	}
	if h := strings.IndexByte(ref, '#'); h >= 0 {
		ref, w.subpath = ref[:h], strings.TrimSpace(ref[h+1:])
	}
	w.target = strings.TrimSpace(ref)
	return w, w.target != "" || w.subpath != ""
}

// link returns a Link of w's names, kept in k (copied: they need not outlive w's
// literal), and its escaped pipe.
func (w wikiParts) link(k *keeper) Link {
	l := Link{EscapedPipe: w.escapedPipe}
	l.setNames(k.keep3(w.target, w.subpath, w.display), len(w.target), len(w.subpath))
	return l
}

// mdLink records the Markdown link whose text runs from opener o to the ']' at p, if a
// destination in parentheses follows, and returns the offset after it. Links with a
// URL scheme or to an anchor in the same note are consumed but not recorded.
func (s *scanner) mdLink(o opener, p, end int) (int, bool) {
	src := s.src
	if p+1 >= end || src[p+1] != '(' {
		return 0, false
	}
	ds, de, closing, ok := parseDest(src, p+2, end)
	if !ok {
		return 0, false
	}
	// A link's text holds no tag (an image inside it is a link of its own).
	s.n.Tags = s.n.Tags[:o.tags]
	dest := src[ds:de]
	if len(dest) == 0 || dest[0] == '#' || hasScheme(dest) {
		return closing + 1, true
	}
	textStart := o.pos + 1
	if o.image {
		textStart++
	}
	path, frag := aliasOf(src, ds, de), ""
	if h := strings.IndexByte(path, '#'); h >= 0 {
		path, frag = path[:h], path[h+1:]
	}
	kind := MarkdownLink
	if o.image {
		kind = MarkdownEmbed
	}
	l := Link{Kind: kind, Start: int32(o.pos), End: int32(closing + 1), Line: int32(s.line)}
	target, subpath := unescapeURL(path), unescapeURL(frag)
	l.setNames(s.strs.keep3(target, subpath, aliasOf(src, textStart, p)), len(target), len(subpath))
	s.n.Links = append(s.n.Links, l)
	return closing + 1, true
}

// DestSpan returns where the destination of the Markdown link l lies in span, the
// link's source text (src[l.Start:l.End]): start and end bound the path and its
// fragment, without the angle brackets of a destination written in them (angled).
// It reads the destination as the parser did (balanced parentheses, escapes, blanks
// around it, a title after it), so a rewrite changes those bytes and no others; ok is
// false for a link that is not Markdown or a span that is not its text.
func (l *Link) DestSpan(span []byte) (start, end int, angled, ok bool) {
	if !l.Kind.IsMarkdown() {
		return 0, 0, false, false
	}
	bracket := 1 + len(l.Display()) // the ']' after the text
	if l.Kind == MarkdownEmbed {
		bracket++
	}
	if bracket+1 >= len(span) || span[bracket] != ']' || span[bracket+1] != '(' {
		return 0, 0, false, false
	}
	ds, de, closing, ok := parseDest(span, bracket+2, len(span))
	if !ok || closing != len(span)-1 {
		return 0, 0, false, false
	}
	return ds, de, ds > 0 && span[ds-1] == '<', true
}

// unescapeURL decodes %XX escapes, keeping s as written when it is not valid.
func unescapeURL(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// parseDest reads a link destination and optional title starting at p (after "(") and
// returns the destination's bounds and the offset of the closing ')'.
func parseDest(src []byte, p, end int) (ds, de, closing int, ok bool) {
	i := skipBlanks(src, p, end)
	if i < end && src[i] == '<' {
		j := i + 1
		for j < end && j-i < maxDest && src[j] != '>' && src[j] != '<' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j >= end || src[j] != '>' {
			return 0, 0, 0, false
		}
		ds, de, i = i+1, j, j+1
	} else {
		depth, j := 0, i
		for j < end && j-i < maxDest {
			c := src[j]
			if c <= ' ' {
				break
			}
			if c == '\\' && j+1 < end {
				j += 2
				continue
			}
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth == 0 {
					break
				}
				depth--
			}
			j++
		}
		ds, de, i = i, j, j
	}
	i = skipBlanks(src, i, end)
	if i < end && i > de && (src[i] == '"' || src[i] == '\'' || src[i] == '(') {
		if i = skipTitle(src, i, end); i < 0 {
			return 0, 0, 0, false
		}
		i = skipBlanks(src, i, end)
	}
	if i >= end || src[i] != ')' {
		return 0, 0, 0, false
	}
	return ds, de, i, true
}

// skipTitle skips a link title opened at p and returns the offset after it, or -1.
func skipTitle(src []byte, p, end int) int {
	closeCh := src[p]
	if closeCh == '(' {
		closeCh = ')'
	}
	for j := p + 1; j < end && j-p < maxTitle; j++ {
		switch src[j] {
		case '\\':
			j++
		case closeCh:
			return j + 1
		}
	}
	return -1
}

// skipBlanks returns the first offset at or after p that is not a space or tab.
func skipBlanks(src []byte, p, end int) int {
	for p < end && (src[p] == ' ' || src[p] == '\t') {
		p++
	}
	return p
}

// hasScheme reports whether dest starts with a URL scheme of two or more letters
// ("https:", "mailto:", "obsidian:"); one letter is a drive ("C:").
func hasScheme(dest []byte) bool {
	for i, c := range dest {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case c == ':':
			return i >= 2
		default:
			return false
		}
	}
	return false
}
