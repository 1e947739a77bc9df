package search

import (
	"bytes"
	"regexp/syntax"
	"slices"

	re2 "github.com/wasilibs/go-re2"

	"github.com/memotree/memotree/backend/internal/utf8x"
)

// The pattern searches run two engines on one expression. Go's regexp finds the
// matching lines of the notes a page shows, as it always did; RE2 (go-re2: the C++
// library compiled to WebAssembly and translated to Go, no cgo) decides whether a
// note matches at all and finds the matches of expressions without a literal, which
// it does several times faster: its lazy DFA reads each byte once, where Go's
// regexp steps an NFA (measured on the 10k vault: 150-700 MB/s against 11-120 MB/s
// for alternations and classes; the same for a literal, which Go's regexp finds
// with a byte search). Both accept the same syntax; text that is not valid UTF-8 is
// left to Go's regexp, whose reading of it is the reference.

// fastMatcher is the RE2 side of a pattern.
type fastMatcher interface {
	Match(b []byte) bool
	FindAllIndex(b []byte, n int) [][]int
}

// compileFast compiles expr with RE2; nil when RE2 refuses it (Go's regexp then
// does all the work).
func compileFast(expr string) fastMatcher {
	re, err := re2.Compile(expr)
	if err != nil {
		return nil
	}
	return re
}

// maxPrefilterAlts bounds the alternatives the literal prefilter tries per note.
const maxPrefilterAlts = 8

// literalPrefilter returns the literals of expr's matches (LiteralAlternatives)
// without empty strings, or nil when some alternative requires none or there are
// too many to try.
func literalPrefilter(tree *syntax.Regexp) [][][]byte {
	alts := LiteralAlternatives(tree)
	if len(alts) == 0 || len(alts) > maxPrefilterAlts {
		return nil
	}
	var out [][][]byte
	for _, alt := range alts {
		var lits [][]byte
		for _, s := range alt {
			if s != "" {
				lits = append(lits, []byte(s))
			}
		}
		if len(lits) == 0 {
			return nil
		}
		out = append(out, lits)
	}
	return out
}

// altsMayMatch reports whether data holds every literal of one alternative, ignoring
// ASCII case (a superset of the matches: the literals fold only through ASCII)
// unless exact.
func altsMayMatch(data []byte, alts [][][]byte, exact bool) bool {
	if alts == nil {
		return true
	}
	for _, alt := range alts {
		ok := true
		for _, lit := range alt {
			if exact && !bytes.Contains(data, lit) || !exact && indexFoldASCII(data, lit) < 0 {
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

// selectiveLiterals says whether p's literals rule notes out of region cheaply:
// findLines searches it by its literal, or each of its alternatives holds one of at least
// minScanLiteral bytes (/note|file/).
func (p *Pattern) selectiveLiterals(region []byte) bool {
	if p.scansByLiteral(region) || p.scanLits != nil {
		return true
	}
	if p.alts == nil {
		return false
	}
	for _, alt := range p.alts {
		if !slices.ContainsFunc(alt, func(lit []byte) bool { return len(lit) >= minScanLiteral }) {
			return false
		}
	}
	return true
}

// regionMatches reports whether p can match data[from:to]: false only when it
// cannot (its literals are missing, or RE2 finds no match).
func (p *Pattern) regionMatches(data []byte, from, to int, vm *validMemo) bool {
	region := data[from:to]
	if !p.mayMatch(region) {
		return false
	}
	valid := vm.valid(data, from, to)
	if p.win != nil && valid && !(p.win.fold && hasFoldTrap(region)) {
		switch p.win.regionMatches(data, from, to, p.re.FindIndex) {
		case windowNoMatch:
			return false
		case windowMatch:
			return true
		}
	}
	if p.fast != nil && valid {
		return p.fast.Match(region)
	}
	return true
}

// bodyMatches says whether findLines must look for the lines of data[from:to]: for a
// page, when the region may match (regionMatches); for a count, which stops at the
// first matching line, when the literals allow a match and they are long enough to
// rule notes out (selectiveLiterals): findLines then finds that line at once, where
// asking RE2 or the windows about the whole region first would do the work twice in
// the notes that match. Otherwise RE2 is asked whether there is a match, which costs
// less than findLines asking it for the matches' places, in the notes that have none.
func (p *Pattern) bodyMatches(data []byte, from, to int, count bool, vm *validMemo) bool {
	if count && p.selectiveLiterals(data[from:to]) {
		return p.mayMatch(data[from:to])
	}
	return p.regionMatches(data, from, to, vm)
}

// validMemo remembers whether the region of a note last asked about is valid UTF-8
// (which decides whether RE2 may search it): the check for a match and the search for
// its lines both ask, and on text of several scripts the check is a tenth of a
// count. A nil memo checks every time.
type validMemo struct {
	from, to int
	set, ok  bool
}

func (m *validMemo) valid(data []byte, from, to int) bool {
	if m == nil {
		return utf8x.Valid(data[from:to])
	}
	if !m.set || m.from != from || m.to != to {
		m.from, m.to, m.ok, m.set = from, to, utf8x.Valid(data[from:to]), true
	}
	return m.ok
}
