package note

import (
	"bytes"
	"strings"
)

// scanner walks the body of one note line by line. It keeps only offsets, so the hot
// path allocates nothing but the strings it returns.
type scanner struct {
	src  []byte
	n    *Note
	line int // 1-based line number of the line being scanned

	// Open fenced code block, if fence > 0.
	fence       int // length of the opening fence, 0 when none is open
	fenceCh     byte
	fenceIndent int
	fenceQuote  int // blockquote depth of the opening fence

	inList    bool // a list item was seen and no unindented paragraph ended it yet
	prevBlank bool
	paraStart int // offset of the current paragraph's first line, -1 when none
	paraLine  int
	paraEnd   int // end (without line break) of the paragraph's last line

	// Failure caches keep the scanner linear on hostile input: a search that found
	// nothing up to the offset stored here need not be repeated.
	noWikiClose   int
	noMathClose   int
	noDollarClose int
	noComment     int
	noTick        [16]int

	stackBuf []opener // reused Markdown link openers

	strs *keeper // the bytes of the strings the note keeps (see keep)
}

// keep returns b as a string for the note to keep (see keeper).
func (s *scanner) keep(b []byte) string { return s.strs.keep(b) }

// addHeading appends h to the note's headings.
func (s *scanner) addHeading(h Heading) {
	s.n.Headings = append(s.n.Headings, h)
}

// body scans src from pos to the end.
func (s *scanner) body(pos int) {
	s.paraStart = -1
	s.noWikiClose, s.noMathClose, s.noDollarClose, s.noComment = -1, -1, -1, -1
	for i := range s.noTick {
		s.noTick[i] = -1
	}
	for pos < len(s.src) {
		end, next := lineBounds(s.src, pos)
		next = s.scanLine(pos, end, next)
		s.line++
		pos = next
	}
}

// scanLine handles the line src[pos:end] and returns where the next line starts (later
// than next when an inline construct such as a comment spans several lines).
func (s *scanner) scanLine(pos, end, next int) int {
	depth, at := quoteDepth(s.src, pos, end)
	if s.fence > 0 {
		if depth < s.fenceQuote {
			s.fence = 0 // the blockquote holding the fence ended
		} else {
			s.fenceLine(at, end)
			return next
		}
	}
	cols, first := leadingSpaces(s.src, at, end)
	if first == end {
		s.prevBlank, s.paraStart = true, -1
		return next
	}
	wasBlank := s.prevBlank
	s.prevBlank = false
	if cols >= 4 && !s.inList {
		return s.paragraph(first, end, depth)
	}
	if isListItem(s.src, first, end) {
		s.inList = true
		s.paraStart = -1
		return s.inline(first, end, first)
	}
	if cols == 0 && wasBlank && depth == 0 {
		s.inList = false
	}
	if s.openFence(first, end, cols, depth) {
		s.paraStart = -1
		return next
	}
	if cols < 4 {
		if level, ok := setextLevel(s.src, first, end); ok {
			if s.paraStart >= 0 && depth == 0 {
				s.addSetext(level)
				return next
			}
			if level == 2 {
				s.paraStart = -1 // a thematic break
				return next
			}
		}
		if s.src[first] == '#' {
			if ok, nx := s.atxHeading(first, end); ok {
				return nx
			}
		}
	}
	return s.paragraph(first, end, depth)
}

// paragraph records a paragraph line and scans its inline content.
func (s *scanner) paragraph(first, end, depth int) int {
	if depth == 0 && !s.inList {
		if s.paraStart < 0 {
			s.paraStart, s.paraLine = first, s.line
		}
		s.paraEnd = end
	} else {
		s.paraStart = -1
	}
	line := s.line
	nx := s.inline(first, end, first)
	if s.line != line {
		s.paraStart = -1 // a comment or math block spanned lines
	}
	return nx
}

// quoteDepth strips blockquote markers ("> ") and returns their count and the offset
// after them.
func quoteDepth(src []byte, pos, end int) (depth, at int) {
	at = pos
	for {
		cols, p := leadingSpaces(src, at, end)
		if cols > 3 || p >= end || src[p] != '>' {
			return depth, at
		}
		depth++
		at = p + 1
		if at < end && src[at] == ' ' {
			at++
		}
	}
}

// isListItem reports whether src[p:end] starts with a list marker and a space.
func isListItem(src []byte, p, end int) bool {
	c := src[p]
	if c == '-' || c == '*' || c == '+' {
		return p+1 == end || src[p+1] == ' ' || src[p+1] == '\t'
	}
	i := p
	for i < end && i-p < 9 && src[i] >= '0' && src[i] <= '9' {
		i++
	}
	if i == p || i >= end || (src[i] != '.' && src[i] != ')') {
		return false
	}
	return i+1 == end || src[i+1] == ' ' || src[i+1] == '\t'
}

// openFence starts a fenced code block if src[p:end] opens one.
func (s *scanner) openFence(p, end, cols, depth int) bool {
	if cols > 3 && !s.inList {
		return false
	}
	c := s.src[p]
	if c != '`' && c != '~' {
		return false
	}
	k := p
	for k < end && s.src[k] == c {
		k++
	}
	if k-p < 3 {
		return false
	}
	if c == '`' && bytes.IndexByte(s.src[k:end], '`') >= 0 {
		return false // a backtick fence's info string holds no backtick
	}
	s.fence, s.fenceCh, s.fenceIndent, s.fenceQuote = k-p, c, cols, depth
	return true
}

// fenceLine handles a line inside a fenced code block: only a closing fence matters.
func (s *scanner) fenceLine(at, end int) {
	cols, p := leadingSpaces(s.src, at, end)
	if cols > s.fenceIndent+3 && cols > 3 {
		return
	}
	k := p
	for k < end && s.src[k] == s.fenceCh {
		k++
	}
	if k-p >= s.fence && isBlank(s.src[k:end]) {
		s.fence = 0
	}
}

// setextLevel reports whether src[p:end] is a setext underline and its level.
func setextLevel(src []byte, p, end int) (int, bool) {
	c := src[p]
	if c != '=' && c != '-' {
		return 0, false
	}
	k := p
	for k < end && src[k] == c {
		k++
	}
	if !isBlank(src[k:end]) {
		return 0, false
	}
	if c == '=' {
		return 1, true
	}
	return 2, true
}

// addSetext turns the current paragraph into a heading.
func (s *scanner) addSetext(level int) {
	text := s.keep(bytes.TrimSpace(s.src[s.paraStart:s.paraEnd]))
	if strings.IndexByte(text, '\n') >= 0 {
		text = strings.Join(strings.Fields(text), " ")
	}
	s.addHeading(Heading{Level: uint8(level), Text: text, Line: int32(s.paraLine)})
	s.paraStart = -1
}

// atxHeading records an ATX heading at src[p:end], scanning its text for links and
// tags, and returns where the next line starts.
func (s *scanner) atxHeading(p, end int) (bool, int) {
	k := p
	for k < end && s.src[k] == '#' {
		k++
	}
	level := k - p
	if level > 6 || (k < end && s.src[k] != ' ' && s.src[k] != '\t') {
		return false, 0
	}
	_, ts := leadingSpaces(s.src, k, end)
	te := end
	for te > ts && (s.src[te-1] == ' ' || s.src[te-1] == '\t') {
		te--
	}
	// Strip a closing sequence of '#' preceded by a space.
	h := te
	for h > ts && s.src[h-1] == '#' {
		h--
	}
	if h == ts || s.src[h-1] == ' ' || s.src[h-1] == '\t' {
		te = h
		for te > ts && (s.src[te-1] == ' ' || s.src[te-1] == '\t') {
			te--
		}
	}
	s.addHeading(Heading{Level: uint8(level), Text: s.keep(s.src[ts:te]), Line: int32(s.line)})
	s.paraStart = -1
	return true, s.inline(ts, te, p)
}
