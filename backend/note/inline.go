package note

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// special marks the bytes the inline scanner has to look at; all others are skipped.
var special = [256]bool{'[': true, ']': true, '#': true, '`': true, '$': true, '<': true, '%': true, '\\': true}

// skipPlain returns the offset of the first byte of src[p:end] that special marks,
// or end. Prose is mostly plain bytes: it looks at eight at a time, with one branch
// for all eight, which made the byte loop the scanner's largest cost.
func skipPlain(src []byte, p, end int) int {
	for ; p+8 <= end; p += 8 {
		w := src[p : p+8 : p+8]
		if specialByte[w[0]]|specialByte[w[1]]|specialByte[w[2]]|specialByte[w[3]]|
			specialByte[w[4]]|specialByte[w[5]]|specialByte[w[6]]|specialByte[w[7]] != 0 {
			break
		}
	}
	for ; p < end; p++ {
		if special[src[p]] {
			return p
		}
	}
	return end
}

// specialByte is special as bytes, 1 for true, for skipPlain to combine eight
// lookups with OR.
var specialByte = func() (t [256]byte) {
	for c, ok := range special {
		if ok {
			t[c] = 1
		}
	}
	return t
}()

// Bounds keep hostile input linear: no real link destination or title is this long.
const (
	maxDest    = 4096
	maxTitle   = 1024
	maxOpeners = 32 // unclosed '[' kept per line; deeper nesting is text
)

// opener is a '[' or "![" that may start a Markdown link.
type opener struct {
	pos   int // offset of '[' or of the '!' before it
	image bool
	tags  int // len(Note.Tags) when the opener was seen
}

// inline scans src[p:end] for links and tags, skipping code spans, math and comments.
// first is the offset of the line's first non-blank byte. It returns the offset where
// the next line starts, which lies further on when a construct spans lines.
func (s *scanner) inline(p, end, first int) int {
	src := s.src
	stack := s.stackBuf[:0]
	for p < end {
		c := src[p]
		if !special[c] {
			if p = skipPlain(src, p+1, end); p == end {
				break
			}
			c = src[p]
		}
		line := s.line
		switch c {
		case '\\':
			p += 2
		case '`':
			p, end = s.codeSpan(p, end)
		case '$':
			p, end = s.math(p, end)
		case '<':
			p, end = s.htmlComment(p, end, first)
		case '%':
			p, end = s.percentComment(p, end)
		case '#':
			p = s.tag(p, end, first)
		case '[':
			if p+1 < end && src[p+1] == '[' {
				if q, ok := s.wikilink(p, end, first); ok {
					p = q
					continue
				}
			}
			o := opener{pos: p, tags: len(s.n.Tags)}
			if bangBefore(src, p, first) {
				o.pos, o.image = p-1, true
			}
			if len(stack) < maxOpeners {
				stack = append(stack, o)
			}
			p++
		case ']':
			if len(stack) == 0 {
				p++
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if q, ok := s.mdLink(o, p, end); ok {
				if !o.image {
					stack = stack[:0] // a link holds no other link
				}
				p = q
				continue
			}
			p++
		}
		if s.line != line {
			stack = stack[:0] // openers do not survive a jump to another line
		}
	}
	s.stackBuf = stack[:0]
	_, next := lineBounds(src, min(end, len(src)))
	return next
}

// jump moves the scan from offset from to offset to on a later line, counting lines,
// and returns to with the end of its line.
func (s *scanner) jump(from, to int) (int, int) {
	s.line += bytes.Count(s.src[from:to], []byte{'\n'})
	end, _ := lineBounds(s.src, to)
	return to, end
}

// codeSpan skips the code span opened by the backtick run at p, which may continue on
// the following lines of the same paragraph.
func (s *scanner) codeSpan(p, end int) (int, int) {
	src := s.src
	q := p
	for q < end && src[q] == '`' {
		q++
	}
	k := q - p
	if k < len(s.noTick) && s.noTick[k] >= q {
		return q, end
	}
	if at := findTicks(src, q, end, k); at >= 0 {
		return at + k, end
	}
	pos := end
	for {
		_, next := lineBounds(src, pos)
		if next >= len(src) {
			break
		}
		le, _ := lineBounds(src, next)
		if isBlank(src[next:le]) {
			break
		}
		if at := findTicks(src, next, le, k); at >= 0 {
			return s.jump(p, at+k)
		}
		pos = le
	}
	if k < len(s.noTick) {
		s.noTick[k] = pos
	}
	return q, end
}

// findTicks returns the offset of the first run of exactly k backticks in src[from:to],
// or -1.
func findTicks(src []byte, from, to, k int) int {
	for from < to {
		i := bytes.IndexByte(src[from:to], '`')
		if i < 0 {
			return -1
		}
		at := from + i
		e := at
		for e < to && src[e] == '`' {
			e++
		}
		if e-at == k {
			return at
		}
		from = e
	}
	return -1
}

// math skips "$$...$$" (which may span lines) or inline "$...$" at p.
func (s *scanner) math(p, end int) (int, int) {
	src := s.src
	if p+1 < len(src) && src[p+1] == '$' {
		if s.noMathClose >= 0 {
			return p + 2, end
		}
		i := bytes.Index(src[p+2:], []byte("$$"))
		if i < 0 {
			s.noMathClose = p
			return p + 2, end
		}
		return s.jumpOrStay(p, p+2+i+2, end)
	}
	if p+1 >= end || src[p+1] == ' ' || src[p+1] == '\t' || s.noDollarClose == end {
		return p + 1, end
	}
	for j := p + 2; j < end; j++ {
		if src[j] == '\\' {
			j++
			continue
		}
		if src[j] != '$' || src[j-1] == ' ' || src[j-1] == '\t' {
			continue
		}
		if j+1 < end && src[j+1] >= '0' && src[j+1] <= '9' {
			continue
		}
		return j + 1, end
	}
	s.noDollarClose = end
	return p + 1, end
}

// jumpOrStay continues at to, which may lie on a later line than p.
func (s *scanner) jumpOrStay(p, to, end int) (int, int) {
	if to <= end {
		return to, end
	}
	return s.jump(p, to)
}

// htmlComment skips an HTML comment at p. An unclosed comment that starts a line runs
// to the end of the note; one inside a line is plain text.
func (s *scanner) htmlComment(p, end, first int) (int, int) {
	src := s.src
	if !bytes.HasPrefix(src[p:], []byte("<!--")) {
		return p + 1, end
	}
	i := -1
	if s.noComment < 0 {
		i = bytes.Index(src[p+4:], []byte("-->"))
	}
	if i < 0 {
		s.noComment = p
		if p == first {
			return s.jump(p, len(src))
		}
		return p + 4, end
	}
	return s.jumpOrStay(p, p+4+i+3, end)
}

// percentComment skips an Obsidian comment "%%...%%" at p; an unclosed one runs to the
// end of the note.
func (s *scanner) percentComment(p, end int) (int, int) {
	src := s.src
	if p+1 >= len(src) || src[p+1] != '%' {
		return p + 1, end
	}
	i := bytes.Index(src[p+2:], []byte("%%"))
	if i < 0 {
		return s.jump(p, len(src))
	}
	return s.jumpOrStay(p, p+2+i+2, end)
}

// tag records the tag at p ('#') if there is one and returns where scanning resumes.
func (s *scanner) tag(p, end, first int) int {
	src := s.src
	if p > first && !spaceBefore(src, p) {
		return p + 1
	}
	q := p + 1
	nonDigit := false
	for q < end {
		c := src[q]
		if c < utf8.RuneSelf {
			if !isTagASCII(c) {
				break
			}
			if c < '0' || c > '9' {
				nonDigit = true
			}
			q++
			continue
		}
		r, size := utf8.DecodeRune(src[q:end])
		if r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsPunct(r) {
			break
		}
		nonDigit = nonDigit || !unicode.IsDigit(r)
		q += size
	}
	if q == p+1 || !nonDigit {
		return q
	}
	s.n.Tags = append(s.n.Tags, Tag{Name: s.keep(src[p+1 : q]), Line: s.line})
	return q
}

// isTagASCII reports whether c may appear in a tag name.
func isTagASCII(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '/'
}

// spaceBefore reports whether the character before offset p is white space.
func spaceBefore(src []byte, p int) bool {
	c := src[p-1]
	if c < utf8.RuneSelf {
		return c == ' ' || c == '\t'
	}
	r, _ := utf8.DecodeLastRune(src[:p])
	return unicode.IsSpace(r)
}

// bangBefore reports whether an unescaped '!' precedes offset p on its line, making
// the link there an embed or an image.
func bangBefore(src []byte, p, first int) bool {
	return p > first && src[p-1] == '!' && (p-2 < first || src[p-2] != '\\')
}
