package search

import (
	"math"
	"math/bits"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The pattern index: for every note, a Bloom filter of the grams of its whole content,
// ASCII letters lower-cased. Grams start at every byte that begins a character (a
// byte that is not a UTF-8 continuation byte): three bytes from an ASCII byte, and
// from the first byte of a longer character both three bytes (a CJK character) and
// six (two CJK characters, three Cyrillic or Greek letters). A text of 3-byte
// characters thus gives two grams per character, its characters and their bigrams,
// where one per byte gave three, two of them straddling characters and saying
// little. A regular expression is reduced to the grams every match must contain
// (RequiredTrigrams): a match starts its literals where a character starts, so a
// literal's grams are taken at the same places; a note whose filter lacks one of
// them cannot match and is never read. A filter answers "maybe" for an absent gram
// about a fifth of the time, so five required grams leave well under one note in a
// thousand to read in vain.

// bloom is one note's gram filter: a multiple of 8 bytes, two bits set for each gram
// (bloom.probes). Kept as bytes, a persisted filter is used where it lies in the
// index file.
type bloom []byte

// A filter is sized for the grams its note holds: filterBitsPerGram bits per distinct
// gram, with two bits per gram, answers "maybe" for an absent gram about a fifth of
// the time ((1-e^(-2/3.2))^2 = 0.22), as a filter of one bit per gram did at 4.5 bits
// per gram. The distinct grams are counted by a first pass into a sketch of one bit
// per byte of text (linear counting: n = -m ln(1 - set/m)); the filter is then filled
// by a second pass.
const (
	filterBitsPerGram = 3.2
	maxFilterBytes    = 1 << 15
)

// wideGram is how many bytes the second gram starting with a non-ASCII character
// holds.
const wideGram = 6

// bloomFor builds the filter of data.
func bloomFor(data []byte) bloom {
	n := 64
	for n*8 < len(data) && n < maxFilterBytes {
		n *= 2
	}
	if len(data) < 3 {
		return make(bloom, 8)
	}
	sketch := make([]byte, n)
	// The first pass keeps the grams' hashes for the second, but of a huge note.
	var hp *[]uint32
	if len(data) <= maxBufferedGrams {
		hp = gramPool.Get().(*[]uint32)
		*hp = (*hp)[:0]
	}
	hashes := fillGrams(sketch, data, true, hp)
	set := 0
	for _, c := range sketch {
		set += bits.OnesCount8(c)
	}
	m := float64(8 * n)
	grams := m * math.Log(m/(m-float64(min(set, 8*n-1))))
	size := min((int(grams*filterBitsPerGram)/8+7)&^7, maxFilterBytes)
	b := make(bloom, max(size, 8))
	if hp == nil {
		fillGrams(b, data, false, nil)
		return b
	}
	for _, h := range hashes {
		p, q := b.probes(h)
		b[p>>3] |= 1 << (p & 7)
		b[q>>3] |= 1 << (q & 7)
	}
	*hp = hashes[:0]
	gramPool.Put(hp)
	return b
}

// maxBufferedGrams is the largest text whose grams' hashes the first pass keeps (four
// bytes a gram); a larger one is read twice.
const maxBufferedGrams = 4 << 20

var gramPool = sync.Pool{New: func() any { return new([]uint32) }}

// fillGrams sets the bits of the grams of data in b: one bit each, b's size a power of
// two, for a sketch; two bits each (bloom.probes) otherwise. With keep (sketches
// only) it appends the grams' hashes to *keep and returns them.
func fillGrams(b []byte, data []byte, sketch bool, keep *[]uint32) []uint32 {
	var hashes []uint32
	if keep != nil {
		hashes = *keep
	}
	mask := uint32(len(b)*8 - 1)
	g := uint32(lowerASCII(data[0]))<<8 | uint32(lowerASCII(data[1]))
	for i, c := range data[2:] {
		g = (g<<8 | uint32(lowerTable[c])) & 0xFFFFFF
		lead := data[i]
		if lead&0xC0 == 0x80 {
			continue // inside a character
		}
		h, wide := mixTrigram(g), lead >= 0x80 && i+wideGram <= len(data)
		var w uint32
		if wide {
			w = mixWide(data[i : i+wideGram])
		}
		if sketch {
			if keep != nil {
				hashes = append(hashes, h)
				if wide {
					hashes = append(hashes, w)
				}
			}
			h &= mask
			b[h>>3] |= 1 << (h & 7)
			if wide {
				w &= mask
				b[w>>3] |= 1 << (w & 7)
			}
			continue
		}
		p, q := bloom(b).probes(h)
		b[p>>3] |= 1 << (p & 7)
		b[q>>3] |= 1 << (q & 7)
		if wide {
			p, q = bloom(b).probes(w)
			b[p>>3] |= 1 << (p & 7)
			b[q>>3] |= 1 << (q & 7)
		}
	}
	return hashes
}

// lowerTable maps every byte to itself, ASCII capitals lower-cased.
var lowerTable = func() (t [256]byte) {
	for c := range t {
		t[c] = lowerASCII(byte(c))
	}
	return t
}()

// probes returns the two bits of b that a gram of hash h sets.
func (b bloom) probes(h uint32) (p, q uint32) {
	m := uint64(len(b) * 8)
	h2 := h*0x85EBCA6B ^ h>>13
	h2 ^= h2 >> 16
	return uint32(uint64(h) * m >> 32), uint32(uint64(h2) * m >> 32)
}

// gramsOf returns the hashes of the grams of s, as bloomFor takes them.
func gramsOf(s string) []uint32 {
	var gs []uint32
	for i := 0; i+3 <= len(s); i++ {
		c := s[i]
		if c&0xC0 == 0x80 {
			continue
		}
		gs = append(gs, mixTrigram(uint32(lowerASCII(c))<<16|uint32(lowerASCII(s[i+1]))<<8|uint32(lowerASCII(s[i+2]))))
		if c >= 0x80 && i+wideGram <= len(s) {
			gs = append(gs, mixWide(s[i:i+wideGram]))
		}
	}
	return gs
}

// gramCount is how many grams s gives (len(gramsOf(s))).
func gramCount(s string) int {
	n := 0
	for i := 0; i+3 <= len(s); i++ {
		if c := s[i]; c&0xC0 != 0x80 {
			n++
			if c >= 0x80 && i+wideGram <= len(s) {
				n++
			}
		}
	}
	return n
}

// mixTrigram scatters a trigram's 24 bits over 32.
func mixTrigram(g uint32) uint32 {
	g *= 0x9E3779B1
	return g ^ g>>15
}

// mixWide hashes a wide gram (wideGram bytes), its ASCII letters lower-cased, to
// 32 bits.
func mixWide[T string | []byte](w T) uint32 {
	var v uint64
	for i := range wideGram {
		v = v<<8 | uint64(lowerASCII(w[i]))
	}
	v *= 0x9E3779B97F4A7C15
	return uint32(v>>32) ^ uint32(v>>13)
}

// has reports whether the filter may hold the gram whose hash is h.
func (b bloom) has(h uint32) bool {
	if len(b) == 0 {
		return true
	}
	p, q := b.probes(h)
	return b[p>>3]&(1<<(p&7)) != 0 && b[q>>3]&(1<<(q&7)) != 0
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// mayMatch reports whether a document whose filter is b may contain every gram of q
// (hashes, gramsOf): q is a disjunction of conjunctions (one alternative must hold
// all its grams);
// nil means anything may match.
func mayMatch(b bloom, q [][]uint32) bool {
	if q == nil {
		return true
	}
	for _, alt := range q {
		ok := true
		for _, g := range alt {
			if !b.has(g) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// maxAlternatives caps how many alternative literal sets a regexp is reduced to;
// past it the regexp is treated as able to match anything.
const maxAlternatives = 64

// literalSet is what every match of a regexp fragment contains: one of several
// alternatives, each a list of literal strings that all occur. exact is set when the
// fragment matches exactly one of the strings in alts (each alternative then being a
// single string), so that concatenation can join them.
type literalSet struct {
	alts  [][]string
	exact bool
	any   bool // nothing is known: the fragment may match anything
}

// RequiredTrigrams reduces a parsed regular expression to the grams of the pattern
// index (their hashes; see bloomFor): a match must contain every gram of at least one
// returned alternative. It returns nil when
// nothing is required (every note is a candidate). Case is folded: the filters hold
// lower-cased ASCII letters.
func RequiredTrigrams(re *syntax.Regexp) [][]uint32 {
	ls := literalsOf(re.Simplify())
	if ls.any || len(ls.alts) == 0 {
		return nil
	}
	var out [][]uint32
	for _, alt := range ls.alts {
		var gs []uint32
		for _, s := range alt {
			gs = append(gs, gramsOf(s)...)
		}
		if len(gs) == 0 {
			return nil // this alternative requires nothing: anything may match
		}
		out = append(out, gs)
	}
	return out
}

var anyLits = literalSet{any: true}

// literalsOf computes the literal set of a regexp fragment.
func literalsOf(re *syntax.Regexp) literalSet {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			if segs := foldSegments(re.Rune); len(segs) != 1 || segs[0] != string(re.Rune) {
				return literalSet{alts: [][]string{segs}}
			}
		}
		return literalSet{alts: [][]string{{string(re.Rune)}}, exact: true}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return literalSet{alts: [][]string{{""}}, exact: true}
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpPlus:
		s := literalsOf(re.Sub[0])
		s.exact = false
		return s
	case syntax.OpRepeat:
		if re.Min == 0 {
			return anyLits
		}
		s := literalsOf(re.Sub[0])
		s.exact = s.exact && re.Min == 1 && re.Max == 1
		return s
	case syntax.OpCharClass:
		return classLiterals(re)
	case syntax.OpConcat:
		acc := literalSet{alts: [][]string{{""}}, exact: true}
		for _, sub := range re.Sub {
			acc = concatLits(acc, literalsOf(sub))
		}
		return acc
	case syntax.OpAlternate:
		var out literalSet
		out.exact = true
		for _, sub := range re.Sub {
			s := literalsOf(sub)
			if s.any {
				return anyLits
			}
			out.alts = append(out.alts, s.alts...)
			out.exact = out.exact && s.exact
			if len(out.alts) > maxAlternatives {
				return anyLits
			}
		}
		return out
	}
	return anyLits // star, quest, any char, …
}

// foldSegments splits a case-insensitive literal into the pieces whose matches the
// filters model exactly: ASCII folding only. Runes with other folds (k and s have
// non-ASCII ones, K and ſ; é has É) separate the pieces.
func foldSegments(runes []rune) []string {
	var segs []string
	start := 0
	for i, r := range runes {
		safe := r < utf8.RuneSelf && r != 'k' && r != 'K' && r != 's' && r != 'S' || r >= utf8.RuneSelf && unicode.SimpleFold(r) == r
		if !safe {
			segs = append(segs, string(runes[start:i]))
			start = i + 1
		}
	}
	return append(segs, string(runes[start:]))
}

// classLiterals turns a small character class into alternatives.
func classLiterals(re *syntax.Regexp) literalSet {
	var out literalSet
	out.exact = true
	n := 0
	for i := 0; i+1 < len(re.Rune); i += 2 {
		n += int(re.Rune[i+1]-re.Rune[i]) + 1
		if n > 8 {
			return anyLits
		}
	}
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if r >= utf8.RuneSelf {
				return anyLits
			}
			out.alts = append(out.alts, []string{string(r)})
		}
	}
	// [Aa] folds to one trigram byte: collapse case pairs.
	seen := map[string]bool{}
	var alts [][]string
	for _, a := range out.alts {
		k := strings.ToLower(a[0])
		if !seen[k] {
			seen[k] = true
			alts = append(alts, []string{k})
		}
	}
	out.alts = alts
	return out
}

// concatLits joins what two consecutive fragments require.
func concatLits(a, b literalSet) literalSet {
	switch {
	case a.any && b.any:
		return anyLits
	case a.any:
		b.exact = false
		return b
	case b.any:
		a.exact = false
		return a
	}
	if a.exact && b.exact && len(a.alts)*len(b.alts) <= maxAlternatives {
		var alts [][]string
		for _, x := range a.alts {
			for _, y := range b.alts {
				alts = append(alts, []string{x[0] + y[0]})
			}
		}
		return literalSet{alts: alts, exact: true}
	}
	// Not joinable: every match holds one alternative of a and one of b. Keep the
	// side with more grams in its weakest alternative.
	if weakest(a) >= weakest(b) {
		a.exact = false
		return a
	}
	b.exact = false
	return b
}

// weakest is the fewest grams any alternative of s gives.
func weakest(s literalSet) int {
	m := -1
	for _, alt := range s.alts {
		n := 0
		for _, l := range alt {
			n += gramCount(l)
		}
		if m < 0 || n < m {
			m = n
		}
	}
	return max(m, 0)
}
