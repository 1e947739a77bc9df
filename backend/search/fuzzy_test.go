package search

import (
	"slices"
	"strings"
	"testing"
)

func TestFuzzyScore(t *testing.T) {
	names := []string{"people/Ada Lovelace", "Plugins/Backlinks", "Plugins/Outgoing links", "links/Aliases", "插件/反向链接", "Analytical Engine", "machines/Difference Engine"}
	rank := func(q string) []string {
		type s struct {
			name  string
			score int
		}
		var out []s
		for _, n := range names {
			if sc, ok := FuzzyScore(q, n); ok {
				out = append(out, s{n, sc})
			}
		}
		slices.SortStableFunc(out, func(a, b s) int { return b.score - a.score })
		var r []string
		for _, x := range out {
			r = append(r, x.name)
		}
		return r
	}
	tests := []struct {
		q     string
		first string
		none  bool
	}{
		{"ada", "people/Ada Lovelace", false},
		{"bl", "Plugins/Backlinks", false},
		{"ae", "Analytical Engine", false},
		{"反向", "插件/反向链接", false},
		{"dif eng", "machines/Difference Engine", false},
		{"zzz", "", true},
	}
	for _, tc := range tests {
		got := rank(tc.q)
		if tc.none {
			if len(got) != 0 {
				t.Errorf("%q matches %v", tc.q, got)
			}
			continue
		}
		if len(got) == 0 || got[0] != tc.first {
			t.Errorf("%q: first is %v, want %s", tc.q, got, tc.first)
		}
		for _, n := range got {
			if _, ok := FuzzyScore(tc.q, n); !ok || !subsequence(strings.ToLower(tc.q), strings.ToLower(n)) {
				t.Errorf("%q matched %s, which does not hold it in order", tc.q, n)
			}
		}
	}
}

func subsequence(q, s string) bool {
	r := []rune(s)
	i := 0
	for _, c := range q {
		for i < len(r) && r[i] != c {
			i++
		}
		if i == len(r) {
			return false
		}
		i++
	}
	return true
}
