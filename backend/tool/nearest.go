package tool

import (
	"cmp"
	"slices"
	"strings"
)

// Nearest returns up to n of the candidates closest to target by edit distance,
// ignoring case, closest first (ties in the candidates' order). Tools use it to offer
// the nearest matches when a name is not found.
func Nearest(target string, candidates []string, n int) []string {
	if n <= 0 || len(candidates) == 0 {
		return nil
	}
	type scored struct {
		name string
		d    int
		i    int
	}
	t := strings.ToLower(target)
	all := make([]scored, 0, len(candidates))
	for i, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(t, lc)
		if t != "" && (strings.Contains(lc, t) || strings.Contains(t, lc)) {
			d = min(d, abs(len(lc)-len(t))/2+1)
		}
		all = append(all, scored{c, d, i})
	}
	slices.SortFunc(all, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.i, b.i))
	})
	out := make([]string, 0, min(n, len(all)))
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// abs returns the absolute value of x.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// maxDistanceInput bounds the strings distance compares, so a hostile 5,000-character
// name cannot cost 25 million steps per candidate.
const maxDistanceInput = 128

// distance is the Levenshtein distance between a and b, in bytes, over their first
// maxDistanceInput bytes.
func distance(a, b string) int {
	a, b = a[:min(len(a), maxDistanceInput)], b[:min(len(b), maxDistanceInput)]
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
