package search

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// A pattern whose every match holds a literal and is at most a few hundred bytes long
// (/\d{3}-\d{4}-\d{4}/ holds "-" and is 13 bytes) need not run through a regexp
// engine over every byte of a note: the literal is found with a byte search (SIMD in
// Go's runtime), the bytes a match must hold at fixed distances before and after it
// are compared, and only a short window around an occurrence that passes is given to
// Go's regexp. A note without a passing occurrence cannot match.
//
// The window holds a margin of one character beyond the longest match on each side,
// so that ^, $, \b and \B see the same neighbours as in the whole text: a match the
// regexp finds that touches neither cut edge of the window is a match of the text. A
// match touching an edge may be made by the cut: the window is widened and asked
// again, and after a few tries the whole region is asked.

// maxWindowMatch bounds the longest match for which windows are used.
const maxWindowMatch = 512

// byteSet is a set of byte values.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) union(o byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3]
}
func (s *byteSet) addRange(lo, hi int) { // lo..hi, inclusive, within 0..255
	for c := lo; c <= hi; c++ {
		s.add(byte(c))
	}
}

// windowFilter decides whether a region holds a match by looking at the occurrences
// of a literal every match contains.
type windowFilter struct {
	lit  []byte
	fold bool // lit compares ignoring ASCII case
	// run is the anchor of a pattern without a literal: the bytes every match holds at
	// len(run) positions in a row ([A-Z]{5}); any is their union. Every len(run)-th
	// byte is compared with any (an occurrence covers one of them), and the run is
	// compared where one is in it.
	run []byteSet
	any byteSet
	// before[k] holds the bytes a match may have k+1 bytes before the literal, after[k]
	// those k bytes after its end; both as far as every match has a byte there.
	before, after []byteSet
	// maxBefore and maxAfter bound how far a match reaches before the literal starts
	// and after it ends.
	maxBefore, maxAfter int
}

// newWindowFilter derives the filter of a parsed expression, or nil when its
// matches are unbounded, longer than maxWindowMatch, or hold no usable literal.
func newWindowFilter(tree *syntax.Regexp) *windowFilter {
	tree = tree.Simplify()
	total := maxMatchLen(tree)
	if total < 0 || total > maxWindowMatch {
		return nil
	}
	subs := flatten(tree, nil)
	// The anchor: the longest literal among the parts every match runs through, so
	// that the bytes around it are known.
	best := -1
	var lit []byte
	var fold bool
	for j, s := range subs {
		if s.Op != syntax.OpLiteral {
			continue
		}
		l, f, ok := literalOf(s)
		if ok && len(l) > len(lit) {
			best, lit, fold = j, l, f
		}
	}
	if best >= 0 {
		return withNeighbours(&windowFilter{lit: lit, fold: fold}, subs, best, best+1)
	}
	// A literal deeper in the expression ("(ab-){2}"): only the reach is known.
	if l, f := requiredLiteral(tree); len(l) > 0 {
		return &windowFilter{lit: l, fold: f, maxBefore: total - len(l), maxAfter: total - len(l)}
	}
	// No literal: the longest run of parts of one fixed width.
	var run []byteSet
	lo, hi := 0, 0
	for j := 0; j < len(subs); {
		k := j
		var seg []byteSet
		for ; k < len(subs); k++ {
			p, fixed := nodePositions(subs[k], false, seg)
			if !fixed || len(p) > maxPositions {
				break
			}
			seg = p
		}
		if len(seg) > len(run) {
			run, lo, hi = seg, j, k
		}
		j = k + 1
	}
	if len(run) == 0 {
		return nil
	}
	w := &windowFilter{run: run}
	for _, b := range run {
		w.any.union(b)
	}
	return withNeighbours(w, subs, lo, hi)
}

// withNeighbours completes a filter whose anchor is the parts subs[lo:hi]: the positions and
// the reach of a match before and after them.
func withNeighbours(w *windowFilter, subs []*syntax.Regexp, lo, hi int) *windowFilter {
	w.maxBefore = maxMatchLen(&syntax.Regexp{Op: syntax.OpConcat, Sub: subs[:lo]})
	w.maxAfter = maxMatchLen(&syntax.Regexp{Op: syntax.OpConcat, Sub: subs[hi:]})
	w.after, _ = positions(subs[hi:], false, nil)
	w.before, _ = positions(subs[:lo], true, nil)
	return w
}

// flatten appends the parts of a concatenation, inside groups too, to out.
func flatten(re *syntax.Regexp, out []*syntax.Regexp) []*syntax.Regexp {
	switch {
	case re.Op == syntax.OpConcat:
		for _, s := range re.Sub {
			out = flatten(s, out)
		}
		return out
	case re.Op == syntax.OpCapture && re.Sub[0].Op == syntax.OpConcat:
		return flatten(re.Sub[0], out)
	}
	return append(out, re)
}

// maxMatchLen is the most bytes a match of re can take, or -1 when unbounded.
func maxMatchLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += maxRuneLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		n := 0
		for i := 1; i < len(re.Rune); i += 2 {
			n = max(n, runeLen(re.Rune[i]))
		}
		return n
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxMatchLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		if maxMatchLen(re.Sub[0]) == 0 {
			return 0
		}
		return -1
	case syntax.OpRepeat:
		n := maxMatchLen(re.Sub[0])
		if n == 0 {
			return 0
		}
		if n < 0 || re.Max < 0 {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			m := maxMatchLen(s)
			if m < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				n += m
			} else {
				n = max(n, m)
			}
		}
		return n
	}
	return -1
}

// runeLen is the length of r in UTF-8; a rune that cannot be encoded counts as the
// one byte it stands for in invalid text.
func runeLen(r rune) int {
	if n := utf8.RuneLen(r); n > 0 {
		return n
	}
	return 1
}

// maxRuneLen is the longest UTF-8 form of r, or of any rune it folds to.
func maxRuneLen(r rune, fold bool) int {
	n := runeLen(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, runeLen(f))
		}
	}
	return n
}

// maxPositions bounds the positions a filter compares on each side.
const maxPositions = 64

// positions appends the byte sets of the positions that every match of the sequence
// nodes has at fixed offsets from its start (or, backward, from its end, nearest
// first), and reports whether the sequence always matches exactly that many bytes
// (so that what follows it starts at a known offset).
func positions(nodes []*syntax.Regexp, backward bool, out []byteSet) ([]byteSet, bool) {
	for k := range nodes {
		n := nodes[k]
		if backward {
			n = nodes[len(nodes)-1-k]
		}
		var fixed bool
		out, fixed = nodePositions(n, backward, out)
		if !fixed || len(out) >= maxPositions {
			return out, false
		}
	}
	return out, true
}

// nodePositions is positions for one node.
func nodePositions(n *syntax.Regexp, backward bool, out []byteSet) ([]byteSet, bool) {
	switch n.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return out, true // zero-width: leaving an assertion out only admits more
	case syntax.OpLiteral:
		for k := range n.Rune {
			r := n.Rune[k]
			if backward {
				r = n.Rune[len(n.Rune)-1-k]
			}
			sets, ok := runeSets(r, n.Flags&syntax.FoldCase != 0)
			if !ok {
				return out, false
			}
			if backward {
				for i := len(sets) - 1; i >= 0; i-- {
					out = append(out, sets[i])
				}
			} else {
				out = append(out, sets...)
			}
		}
		return out, true
	case syntax.OpCharClass:
		var s byteSet
		for i := 0; i < len(n.Rune); i += 2 {
			if n.Rune[i+1] >= utf8.RuneSelf {
				return out, false // runes of different lengths
			}
			s.addRange(int(n.Rune[i]), int(n.Rune[i+1]))
		}
		return append(out, s), true
	case syntax.OpCapture:
		return nodePositions(n.Sub[0], backward, out)
	case syntax.OpConcat:
		return positions(n.Sub, backward, out)
	case syntax.OpPlus:
		out, _ = nodePositions(n.Sub[0], backward, out)
		return out, false
	case syntax.OpRepeat:
		for range n.Min {
			var fixed bool
			if out, fixed = nodePositions(n.Sub[0], backward, out); !fixed || len(out) >= maxPositions {
				return out, false
			}
		}
		return out, n.Min == n.Max
	case syntax.OpAlternate:
		return alternatePositions(n, backward, out)
	}
	return out, false // unknown width: the positions end here
}

// alternatePositions merges the positions of alternatives of one fixed length.
func alternatePositions(n *syntax.Regexp, backward bool, out []byteSet) ([]byteSet, bool) {
	var merged []byteSet
	for i, s := range n.Sub {
		p, fixed := nodePositions(s, backward, nil)
		if !fixed || i > 0 && len(p) != len(merged) {
			return out, false
		}
		if i == 0 {
			merged = p
			continue
		}
		for k := range p {
			merged[k].union(p[k])
		}
	}
	return append(out, merged...), true
}

// runeSets returns the byte sets of the positions of r in UTF-8, with the runes it
// folds to when fold is set; ok is false when those differ in length.
func runeSets(r rune, fold bool) ([]byteSet, bool) {
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	sets := make([]byteSet, n)
	for i := range n {
		sets[i].add(buf[i])
	}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if utf8.EncodeRune(buf[:], f) != n {
				return nil, false
			}
			for i := range n {
				sets[i].add(buf[i])
			}
		}
	}
	return sets, true
}

// windowVerdict is what the windows of a region say.
type windowVerdict int

const (
	windowNoMatch windowVerdict = iota
	windowMatch
	windowUnsure // the whole region must be asked
)

// regionMatches looks for a match in data[from:to], which must be valid UTF-8, with
// match finding a match in a window (Go's regexp).
func (w *windowFilter) regionMatches(data []byte, from, to int, match func([]byte) []int) windowVerdict {
	if w.fold && hasFoldTrap(data[from:to]) {
		return windowUnsure // a letter the ASCII search for the literal does not see
	}
	budget := 2*(to-from) + 4096 // bytes compared or given to the regexp before the whole region is cheaper
	for pos := from; pos < to; {
		i := w.next(data, pos, to, &budget)
		if budget < 0 {
			return windowUnsure
		}
		if i < 0 {
			return windowNoMatch
		}
		pos = i + 1
		budget -= len(w.before) + len(w.after)
		if !w.around(data, from, to, i) {
			continue
		}
		// The reach of a match holding the anchor at i, then one character more on
		// each side: every match there is found with the neighbours it has in the text.
		n := w.anchorLen()
		ws, we := i-w.maxBefore-1, i+n+w.maxAfter+1
		grow := w.maxBefore + n + w.maxAfter + 1
		for try := 0; ; try++ {
			ws, we = max(from, ws), min(to, we)
			for ws > from && !utf8.RuneStart(data[ws]) {
				ws--
			}
			for we < to && !utf8.RuneStart(data[we]) {
				we++
			}
			if budget -= we - ws; budget < 0 {
				return windowUnsure
			}
			loc := match(data[ws:we])
			if loc == nil {
				break // no match holds the literal at i
			}
			// A match that touches neither cut edge of the window saw the text's own
			// neighbours: it is a match of the text.
			if (loc[0] > 0 || ws == from) && (ws+loc[1] < we || we == to) {
				return windowMatch
			}
			if try == 3 {
				return windowUnsure
			}
			// The edge may have made the match: ask a wider window.
			ws, we = ws-grow, we+grow
			grow *= 2
		}
	}
	return windowNoMatch
}

// anchorLen is the length of the anchor in bytes.
func (w *windowFilter) anchorLen() int {
	if w.run != nil {
		return len(w.run)
	}
	return len(w.lit)
}

// next returns the first index at or after pos where the anchor occurs in
// data[:to], or -1; the bytes it compares are taken from budget.
func (w *windowFilter) next(data []byte, pos, to int, budget *int) int {
	if w.run != nil {
		return w.nextRun(data, pos, to, budget)
	}
	var i int
	switch {
	case w.fold:
		i = indexFoldASCII(data[pos:to], w.lit)
	case len(w.lit) == 1:
		i = bytes.IndexByte(data[pos:to], w.lit[0])
	default:
		i = bytes.Index(data[pos:to], w.lit)
	}
	if i < 0 {
		return -1
	}
	return pos + i
}

// nextRun is next for a run: of the bytes at from+k-1, from+2k-1, … (k the run's
// length), every occurrence covers exactly one; the starts it may have are compared
// where that byte is one the run holds.
func (w *windowFilter) nextRun(data []byte, pos, to int, budget *int) int {
	k := len(w.run)
	// The first checked byte at or after pos: offsets count from where the search
	// began, which every call shares through the stride.
	j := pos + (k-1-pos%k+k)%k
	for ; j < to; j, pos = j+k, j+1 {
		if !w.any.has(data[j]) {
			continue
		}
		for s := pos; s <= j && s+k <= to; s++ {
			*budget -= k
			if w.runAt(data, s) {
				return s
			}
		}
		if *budget < 0 {
			return -1
		}
	}
	return -1
}

// runAt reports whether the run occurs at s.
func (w *windowFilter) runAt(data []byte, s int) bool {
	for t := range w.run {
		if !w.run[t].has(data[s+t]) {
			return false
		}
	}
	return true
}

// around reports whether the bytes at fixed distances from the literal at i allow a
// match; a match cannot reach outside data[from:to].
func (w *windowFilter) around(data []byte, from, to, i int) bool {
	for k := range w.before {
		p := i - 1 - k
		if p < from || !w.before[k].has(data[p]) {
			return false
		}
	}
	end := i + w.anchorLen()
	for k := range w.after {
		p := end + k
		if p >= to || !w.after[k].has(data[p]) {
			return false
		}
	}
	return true
}
