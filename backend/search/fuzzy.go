package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FuzzyScore scores how well query matches candidate as a quick switcher does: every
// character of the query must appear in the candidate in order, case-insensitively;
// consecutive characters, characters at the start of a word and a match in the last
// path element score higher, and gaps cost. ok is false when query is not a
// subsequence of candidate. An empty query matches everything with score 0.
func FuzzyScore(query, candidate string) (score int, ok bool) {
	q := []rune(strings.ToLower(strings.TrimSpace(query)))
	if len(q) == 0 {
		return 0, true
	}
	c := []rune(candidate)
	base := strings.LastIndexByte(candidate, '/') + 1
	baseRunes := utf8.RuneCountInString(candidate[:base])
	qi, prev := 0, -2
	for ci := 0; ci < len(c) && qi < len(q); ci++ {
		if unicode.ToLower(c[ci]) != q[qi] {
			continue
		}
		s := 1
		if ci == prev+1 {
			s += 5 // consecutive
		}
		if ci == 0 || !unicode.IsLetter(c[ci-1]) && !unicode.IsDigit(c[ci-1]) || unicode.IsUpper(c[ci]) && unicode.IsLower(c[ci-1]) {
			s += 8 // start of a word
		}
		if ci >= baseRunes {
			s += 2 // in the note's own name, not its folder
		}
		if prev >= 0 && ci > prev+1 {
			s -= min(ci-prev-1, 5) // gap
		}
		score += s
		prev = ci
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	score -= min(len(c)-len(q), 20) / 4 // shorter names first, all else equal
	return score, true
}
