package search

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestShortLiteralsEitherWay: a pattern whose only literal is short is searched by
// that literal where it is rare and by RE2 where it is common (scansByLiteral); both
// find the lines Go's regexp finds line by line, and a count says the same.
func TestShortLiteralsEitherWay(t *testing.T) {
	var dense, sparse strings.Builder
	for i := range 400 {
		fmt.Fprintf(&dense, "key: value %d := x\n", i) // a ':' on every line
		fmt.Fprintf(&sparse, "plain prose line number %d\n", i)
		if i%97 == 50 {
			fmt.Fprintf(&dense, "at %02d:%02d the job ran\n", i%24, i%60)
			fmt.Fprintf(&sparse, "at %02d:%02d the job ran\n", i%24, i%60)
		}
	}
	texts := map[string][]byte{"dense": []byte(dense.String()), "sparse": []byte(sparse.String()), "none": []byte("no time here: none\n")}
	for _, src := range []string{`/[0-9]{2}:[0-9]{2}/`, `/\d:\d/`, `/(?i)[a-z]{2}:[0-9]/`} {
		p, err := CompilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range texts {
			var want []int
			for n, line := range bytes.SplitAfter(data, []byte("\n")) {
				if p.re.Match(line) {
					want = append(want, n+1)
				}
			}
			lines, count := findLinesUpTo(p, data, 0, len(data), "", 1000)
			var got []int
			for _, l := range lines {
				got = append(got, l.LineNumber)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || count != len(want) {
				t.Errorf("%s in %s: lines %v (%d), want %v", src, name, got, count, want)
			}
			q := ContentQuery{Pattern: p, Summary: true}
			if m := matchNote(q, "n.md", data); (m != nil) != (len(want) > 0) {
				t.Errorf("%s in %s: counted %v, want %v", src, name, m != nil, len(want) > 0)
			}
		}
	}
	p, _ := CompilePattern(`/[0-9]{2}:[0-9]{2}/`)
	if p.scansByLiteral(texts["dense"]) || !p.scansByLiteral(texts["sparse"]) {
		t.Errorf("':' searched by literal: in the dense text %v, in the sparse one %v; want false, true",
			p.scansByLiteral(texts["dense"]), p.scansByLiteral(texts["sparse"]))
	}
}
