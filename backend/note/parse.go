package note

import (
	"bytes"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/internal/utf8x"
)

// bom is the UTF-8 byte order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse reads one note. It never fails and never panics: whatever it cannot read is
// reported in the returned Note's Warnings, and every offset in the result is an offset
// into src, including its byte order mark when there is one.
//
// Front matter is decoded with YAML v3 semantics (a fast path reads the common simple
// shapes itself and hands anything else to YAML v3). Links inside front matter string
// values are reported with InFrontMatter set; when the link's characters were changed
// by YAML escapes or line folding its span cannot be mapped and Start = End = -1.
//
// The body is read by a hand-written scanner that follows CommonMark and Obsidian
// closely enough for links, tags and headings, with these simplifications:
// indented (four-space) code blocks are not recognised, wikilinks, Markdown links and
// inline math must sit on one line, a fence indented by four or more spaces is
// accepted only inside a list, and an image inside a Markdown link is reported before
// the link that holds it.
func Parse(src []byte) *Note { return parse(src, true) }

// ParseLean is Parse without Properties (left nil): everything else, warnings
// included, is what Parse gives. It is what the vault's index keeps of every note,
// where the full property values were a fifth of the heap and nothing read them;
// whoever needs them parses the file itself.
func ParseLean(src []byte) *Note { return parse(src, false) }

// MaxSource is the most bytes of a note Parse reads: offsets and lines are int32. The
// rest of a larger source is not read, and a warning says so (the vault's index
// reads notes of at most 64 MB).
const MaxSource = 1<<31 - 1

func parse(src []byte, keepProps bool) *Note {
	n := &Note{}
	if len(src) > MaxSource {
		src = src[:MaxSource]
		defer n.warnf(0, "the note is larger than %d bytes; only its first %d bytes are read", MaxSource, MaxSource)
	}
	start := 0
	if bytes.HasPrefix(src, bom) {
		n.HasBOM = true
		start = len(bom)
	}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		n.CRLF = true
	}
	if !utf8x.Valid(src[start:]) {
		line := firstInvalidLine(src[start:]) + lineOf(src[:start], 0) - 1
		n.Warnings = append(n.Warnings, Warning{Line: line, Message: "invalid UTF-8; the note is read as far as possible"})
	}
	// Links, headings and tags gather in reused slices and are copied out at their
	// exact size once the note is read (see scratch).
	sc := scratchPool.Get().(*scratch)
	n.Links, n.Headings, n.Tags = sc.links[:0], sc.headings[:0], sc.tags[:0]
	defer sc.done(n)
	fm := findFrontMatter(src, start)
	bodyStart, bodyLine := start, 1
	if f := otherFormatOf(src, start); f != "" {
		if of := otherFrontMatter(src, start, f); of.fm.ok {
			n.FrontMatterStart, n.FrontMatterEnd = start, of.fm.end
			n.FrontMatterFormat = f
			bodyStart, bodyLine = of.fm.end, of.fm.closeLine+1
			parseOtherFrontMatter(n, src, of, keepProps, &sc.strs)
			fm = fmBounds{}
		}
	}
	switch {
	case fm.noClose:
		n.Warnings = append(n.Warnings, Warning{Line: 1, Message: "front matter has no closing \"---\" line; it is read as body text"})
	case fm.ok:
		n.FrontMatterStart, n.FrontMatterEnd = start, fm.end
		n.FrontMatterFormat = FormatYAML
		bodyStart, bodyLine = fm.end, fm.closeLine+1
		parseFrontMatter(n, src, fm, keepProps, &sc.strs)
	}
	n.BodyStart = bodyStart
	s := scanner{src: src, n: n, line: bodyLine, strs: &sc.strs}
	s.body(bodyStart)
	if !keepProps {
		sc.strs.rehome(n, src) // the lean front matter's values share src's bytes
	}
	return n
}

// scratch holds the slices a note's links, headings and tags are gathered in while
// it is read, reused from note to note: the note keeps copies of exactly their length.
// Growing the note's own slices left the outgrown arrays behind, and sizing them
// beforehand took a pass over the note; a full index allocates every byte it keeps
// fresh from the system, which was a fifth of its time at 100,000 notes.
type scratch struct {
	links    []Link
	headings []Heading
	tags     []Tag
	strs     keeper // the bytes of the strings the notes keep
}

// scratchPool holds the scratch of the notes not being read.
var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

// done gives n copies of the links, headings and tags gathered in sc (nil for none)
// and returns sc to the pool.
// A scratch grown past scratchMax links or headings by a huge note is dropped.
func (sc *scratch) done(n *Note) {
	sc.links, n.Links = n.Links[:0], exact(n.Links)
	sc.headings, n.Headings = n.Headings[:0], exact(n.Headings)
	sc.tags, n.Tags = n.Tags[:0], exact(n.Tags)
	if cap(sc.links) > scratchMax || cap(sc.headings) > scratchMax || cap(sc.tags) > scratchMax {
		return
	}
	scratchPool.Put(sc)
}

// scratchMax bounds what a pooled scratch holds on to: far more links, headings or
// tags than a note usually has.
const scratchMax = 4096

// exact returns a copy of s with no spare capacity, or nil when s is empty.
func exact[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// firstInvalidLine returns the 1-based line of the first invalid UTF-8 sequence in b.
func firstInvalidLine(b []byte) int {
	line := 1
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				line++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return line
		}
		i += size
	}
	return line
}

// lineOf returns the 1-based line number of offset off in src.
func lineOf(src []byte, off int) int {
	if off > len(src) {
		off = len(src)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// lineBounds returns the end of the line starting at pos without its line break
// ("\n" or "\r\n") and the start of the next line.
func lineBounds(src []byte, pos int) (end, next int) {
	i := bytes.IndexByte(src[pos:], '\n')
	if i < 0 {
		end = len(src)
		next = len(src)
	} else {
		end = pos + i
		next = end + 1
	}
	if end > pos && src[end-1] == '\r' {
		end--
	}
	return end, next
}

// isBlank reports whether b holds only spaces and tabs.
func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// leadingSpaces counts the columns of leading spaces and tabs (a tab counts as 4) and
// returns them with the offset of the first other byte.
func leadingSpaces(src []byte, pos, end int) (cols, at int) {
	for at = pos; at < end; at++ {
		switch src[at] {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols, at
		}
	}
	return cols, at
}

// warnf appends a warning to n.
func (n *Note) warnf(line int, format string, args ...any) {
	n.Warnings = append(n.Warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}
