package search

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/vpath"
)

// maxPatternLen bounds a glob or regular expression, in bytes.
const maxPatternLen = 1000

// Pattern is a compiled glob or /regular expression/ with the literals every
// match must contain, used to skip files cheaply before the regexp runs.
type Pattern struct {
	src string
	re  *regexp.Regexp
	// lit is a literal every match contains, or nil when none could be found; fold
	// says it must be compared ignoring ASCII case.
	lit  []byte
	fold bool
	// alts are the literals of every match, by alternative (literalPrefilter), nil
	// when unknown; fast is the RE2 engine (pattern_re2.go), nil when RE2 refused
	// the expression.
	alts [][][]byte
	// scanLits holds, for a case-sensitive pattern of several alternatives, the
	// longest literal of each when every one has one of minScanLiteral bytes or more:
	// findLinesUpTo then visits the lines holding one of them (/note|file/), as it
	// does those holding lit. Nil otherwise.
	scanLits [][]byte
	// litsOnly says the pattern is nothing but the alternation of scanLits: a line
	// holding one of them matches, at the first (the earliest alternative where
	// several start), without asking the regexp.
	litsOnly bool
	// exactAlts says no part of the pattern ignores case: alts are then looked for
	// as they are, not ignoring ASCII case.
	exactAlts bool
	fast      fastMatcher
	// win looks for matches around the occurrences of a literal when every match is
	// short (pattern_window.go); nil when it cannot.
	win *windowFilter
}

// Source returns the glob or /regular expression/ the pattern was compiled from.
func (p *Pattern) Source() string { return p.src }

// MatchesName reports whether a name pattern (CompileNamePattern) matches a note's
// name: the whole name, or, for a glob without "/", the name without its folder.
func (p *Pattern) MatchesName(path vpath.Path) bool {
	name := path.Name()
	if p.re.MatchString(name) {
		return true
	}
	if strings.Contains(p.src, "/") && !strings.HasPrefix(p.src, "/") {
		return false
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	return base != name && p.re.MatchString(base)
}

// ErrPattern wraps every problem with a pattern, so that callers can tell a pattern
// they were given that is wrong from a failure.
var ErrPattern = errors.New("invalid pattern")

// CompilePattern compiles a content pattern: a regular expression when written
// "/like this/flags" (flags i, m, s, U), else a glob matched anywhere in a line, case
// insensitively, where "*" and "**" match any run of characters, "?" one character and
// "[...]" one of a class ("[!...]" for none of it).
func CompilePattern(s string) (*Pattern, error) {
	if err := checkPatternText(s); err != nil {
		return nil, err
	}
	if expr, ok, err := slashRegexp(s); ok {
		if err != nil {
			return nil, err
		}
		return newPattern(s, "(?m)"+expr)
	}
	// A content glob matches anywhere in a line, so stars at its ends add nothing
	// but cost: "*engine*" searches for "engine".
	g := strings.Trim(s, "*")
	if g == "" {
		g = s
	}
	return newPattern(s, "(?im)"+globExpr(g, false))
}

// CompileNamePattern compiles a name pattern: a /regular expression/ searched in the
// name, or a glob matched against the whole name, where "*" stays within one folder
// and "**" crosses folders.
func CompileNamePattern(s string) (*Pattern, error) {
	if err := checkPatternText(s); err != nil {
		return nil, err
	}
	if expr, ok, err := slashRegexp(s); ok {
		if err != nil {
			return nil, err
		}
		return newPattern(s, expr)
	}
	g := strings.TrimPrefix(s, "/") // names have no leading slash: "/people/*" means "people/*"
	return newPattern(s, "(?is)^"+globExpr(g, true)+"$")
}

// checkPatternText refuses empty, oversized and binary patterns.
func checkPatternText(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("%w: the pattern is empty", ErrPattern)
	case len(s) > maxPatternLen:
		return fmt.Errorf("%w: the pattern is %d bytes long; the limit is %d", ErrPattern, len(s), maxPatternLen)
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		return fmt.Errorf("%w: the pattern holds a NUL byte or invalid UTF-8", ErrPattern)
	}
	return nil
}

// slashRegexp recognises "/expr/flags" and returns the expression with its flags as a
// Go prefix; ok is false for anything else (a glob).
func slashRegexp(s string) (expr string, ok bool, err error) {
	if len(s) < 2 || s[0] != '/' {
		return "", false, nil
	}
	end := strings.LastIndexByte(s, '/')
	if end == 0 {
		return "", false, nil
	}
	flags := s[end+1:]
	if strings.Trim(flags, "imsU") != "" {
		return "", false, nil // "/path/to/*" is a glob, not a regexp with flags
	}
	expr = s[1:end]
	if expr == "" {
		return "", true, fmt.Errorf("%w: the regular expression between the slashes is empty", ErrPattern)
	}
	if flags != "" {
		expr = "(?" + dedupe(flags) + ")" + expr
	}
	return expr, true, nil
}

// dedupe returns the flag letters of s, each once.
func dedupe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !strings.ContainsRune(b.String(), r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// globExpr translates a glob to regexp syntax. In names "*" does not cross "/";
// in contents every star matches any run of characters within a line. Runs of stars
// collapse to one, so "*****a" costs no more than "*a".
func globExpr(g string, names bool) string {
	star, anyRun := `[^\n]*`, `[^\n]*`
	if names {
		star, anyRun = `[^/]*`, `.*`
	}
	var b strings.Builder
	for i := 0; i < len(g); {
		c := g[i]
		switch {
		case c == '*':
			j := i
			for j < len(g) && g[j] == '*' {
				j++
			}
			switch {
			case j-i >= 2 && names && j < len(g) && g[j] == '/':
				b.WriteString(`(?:.*/)?`) // "**/" also matches no folder at all
				j++
			case j-i >= 2:
				b.WriteString(anyRun)
			default:
				b.WriteString(star)
			}
			i = j
		case c == '?':
			b.WriteString(`[^/\n]`)
			i++
		case c == '[':
			if cls, n := globClass(g[i:]); n > 0 {
				b.WriteString(cls)
				i += n
				continue
			}
			b.WriteString(`\[`)
			i++
		default:
			r, n := utf8.DecodeRuneInString(g[i:])
			b.WriteString(regexp.QuoteMeta(string(r)))
			i += n
		}
	}
	return b.String()
}

// globClass translates the class at the start of g ("[abc]", "[!a-z]", "[^0-9]") and
// returns its length in g, or 0 when g does not start a complete class.
func globClass(g string) (string, int) {
	i := 1
	neg := i < len(g) && (g[i] == '!' || g[i] == '^')
	if neg {
		i++
	}
	start := i
	if i < len(g) && g[i] == ']' {
		i++ // a leading ']' is a member
	}
	for i < len(g) && g[i] != ']' {
		i++
	}
	if i >= len(g) || i == start {
		return "", 0
	}
	var b strings.Builder
	b.WriteByte('[')
	if neg {
		b.WriteString(`^\n`)
	}
	for _, r := range g[start:i] {
		if r == '\\' || r == '[' || r == ']' || r == '^' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte(']')
	return b.String(), i + 1
}

// newPattern compiles expr and extracts its required literal.
func newPattern(src, expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: %s in %q", ErrPattern, se.Code, se.Expr)
		}
		return nil, fmt.Errorf("%w: %v", ErrPattern, err)
	}
	p := &Pattern{src: src, re: re}
	if tree, err := syntax.Parse(expr, syntax.Perl); err == nil {
		if n := largestRepeat(tree); n > maxRepeat {
			return nil, fmt.Errorf("%w: a repetition count of %d is more than a search allows (%d); use * or + instead", ErrPattern, n, maxRepeat)
		}
		p.lit, p.fold = requiredLiteral(tree.Simplify())
		p.alts = literalPrefilter(tree)
		p.scanLits = scanLiterals(tree, p.alts)
		p.litsOnly = p.scanLits != nil && onlyLiterals(tree, p.scanLits)
		p.exactAlts = !foldsCase(tree)
		p.win = newWindowFilter(tree)
	}
	p.fast = compileFast(expr)
	return p, nil
}

// scanLiterals returns the longest literal of each alternative of alts, when there
// are several, every one has a literal of minScanLiteral bytes or more, and no part
// of tree ignores case (alts hold literals to be compared ignoring ASCII case only).
func scanLiterals(tree *syntax.Regexp, alts [][][]byte) [][]byte {
	if len(alts) < 2 || foldsCase(tree) {
		return nil
	}
	out := make([][]byte, len(alts))
	for i, alt := range alts {
		for _, lit := range alt {
			if len(lit) > len(out[i]) {
				out[i] = lit
			}
		}
		if len(out[i]) < minScanLiteral {
			return nil
		}
	}
	return out
}

// onlyLiterals reports whether re is the alternation of lits, in their order, and
// nothing else: no literal ignoring case or holding a line break.
func onlyLiterals(re *syntax.Regexp, lits [][]byte) bool {
	re = re.Simplify()
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpAlternate || len(re.Sub) != len(lits) {
		return false
	}
	for i, s := range re.Sub {
		for s.Op == syntax.OpCapture {
			s = s.Sub[0]
		}
		if s.Op != syntax.OpLiteral || s.Flags&syntax.FoldCase != 0 || string(s.Rune) != string(lits[i]) || strings.ContainsRune(string(s.Rune), '\n') {
			return false
		}
	}
	return true
}

// foldsCase reports whether any part of re matches ignoring case.
func foldsCase(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 {
		return true
	}
	return slices.ContainsFunc(re.Sub, foldsCase)
}

// maxRepeat bounds counted repetitions ({n,m}): the regexp's cost on every byte grows
// with them, so "[\s\S]{1000}" would take seconds per megabyte.
const maxRepeat = 200

// largestRepeat returns the largest repetition count in re, nested counts multiplied
// ("(a{50}){3}" counts 150). The parser already refuses products above 1000.
func largestRepeat(re *syntax.Regexp) int {
	n := 1
	for _, s := range re.Sub {
		n = max(n, largestRepeat(s))
	}
	if re.Op == syntax.OpRepeat {
		n *= max(re.Min, re.Max, 1)
	}
	return n
}

// requiredLiteral returns the longest literal that every match of re contains, and
// whether it is case-insensitive. A case-insensitive literal is only used when it is
// ASCII (or has no case at all, as Chinese text), so the prefilter stays exact.
func requiredLiteral(re *syntax.Regexp) ([]byte, bool) {
	var best []byte
	bestFold := false
	consider := func(r *syntax.Regexp) {
		lit, fold, ok := literalOf(r)
		if !ok || len(lit) <= len(best) && !(len(lit) == len(best) && bestFold && !fold) {
			return
		}
		best, bestFold = lit, fold
	}
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			consider(r)
		case syntax.OpCapture:
			walk(r.Sub[0])
		case syntax.OpPlus:
			walk(r.Sub[0]) // at least once
		case syntax.OpRepeat:
			if r.Min >= 1 {
				walk(r.Sub[0])
			}
		case syntax.OpConcat:
			for _, s := range r.Sub {
				walk(s)
			}
		}
	}
	walk(re)
	return best, bestFold
}

// literalOf returns the bytes of a literal node and whether they must be compared
// ignoring case; ok is false when no exact prefilter can be derived.
func literalOf(r *syntax.Regexp) (lit []byte, fold, ok bool) {
	s := string(r.Rune)
	if r.Flags&syntax.FoldCase == 0 {
		return []byte(s), false, s != ""
	}
	cased := false
	for _, c := range r.Rune {
		if unicode.SimpleFold(c) != c {
			cased = true
			if c >= utf8.RuneSelf {
				return nil, false, false
			}
		}
	}
	return []byte(s), cased, s != ""
}

// foldTraps are the non-ASCII letters that fold to ASCII ones (the Kelvin sign and the
// long s): text holding them cannot be prefiltered by ASCII case folding.
var foldTraps = [][]byte{[]byte("\u212a"), []byte("\u017f")}

// mayMatch reports whether data can hold a match, by looking for the literals.
func (p *Pattern) mayMatch(data []byte) bool {
	if !altsMayMatch(data, p.alts, p.exactAlts) {
		return false
	}
	if len(p.lit) == 0 {
		return true
	}
	if !p.fold {
		return bytes.Contains(data, p.lit)
	}
	if indexFoldASCII(data, p.lit) >= 0 {
		return true
	}
	for _, t := range foldTraps {
		if bytes.Contains(data, t) {
			return true
		}
	}
	return false
}

// indexFoldASCII returns the first index of the ASCII literal lit in data, ignoring
// ASCII case, or -1. It jumps between occurrences of lit's first byte in either case.
func indexFoldASCII(data, lit []byte) int {
	limit := len(data) - len(lit) + 1
	if limit <= 0 {
		return -1
	}
	s := data[:limit]
	lo, up := lower(lit[0]), upper(lit[0])
	nextLo, nextUp := indexFrom(s, lo, 0), -1
	if up != lo {
		nextUp = indexFrom(s, up, 0)
	}
	for {
		i := nextLo
		if i < 0 || (nextUp >= 0 && nextUp < i) {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		if asciiEqualFold(data[i:i+len(lit)], lit) {
			return i
		}
		if i == nextLo {
			nextLo = indexFrom(s, lo, i+1)
		} else {
			nextUp = indexFrom(s, up, i+1)
		}
	}
}

// indexFrom returns the index of c in s at or after from, or -1.
func indexFrom(s []byte, c byte, from int) int {
	if from >= len(s) {
		return -1
	}
	if j := bytes.IndexByte(s[from:], c); j >= 0 {
		return from + j
	}
	return -1
}

// asciiEqualFold compares two equally long byte strings ignoring ASCII case.
func asciiEqualFold(a, b []byte) bool {
	for i := range a {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
