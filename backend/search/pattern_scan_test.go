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
			lines, count := findLinesUpTo(p, data, 0, len(data), "", 1000, nil)
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

// TestAlternativesByTheirLiterals: a case-sensitive pattern whose alternatives each
// hold a literal (/note|file/, alternatives with more around them, one rare and one on
// every line) is searched by those literals (scanLits); it finds the lines Go's
// regexp finds line by line, with the same matched text, and a count says the same.
// A pattern ignoring case, or with an alternative of no long literal, is not.
func TestAlternativesByTheirLiterals(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "line %d of the notebook, a notes file and a profile\n", i)
		if i%53 == 7 {
			fmt.Fprintf(&b, "rare zqxwv %d then filed notes\n", i)
		}
	}
	texts := map[string][]byte{
		"common": []byte(b.String()),
		"rare":   []byte("nothing\nhere\nuntil zqxwv 42 at the end"),
		"none":   []byte("no literal at all\n"),
		"utf8":   []byte("知识 note 图谱\n\xff file \xfe\nплохо\n"),
	}
	for _, src := range []string{`/note|file/`, `/file|note|profile/`, `/\bnote (?:file|book)\b|profile/`, `/zqxwv \d+|profile$/`, `/(file|note)d?\s/`} {
		p, err := CompilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		if p.scanLits == nil {
			t.Fatalf("%s: not searched by its literals", src)
		}
		if want := src == `/note|file/` || src == `/file|note|profile/`; p.litsOnly != want {
			t.Errorf("%s: litsOnly %v, want %v", src, p.litsOnly, want)
		}
		for name, data := range texts {
			var want []string
			for n, line := range bytes.SplitAfter(data, []byte("\n")) {
				if loc := p.re.FindIndex(bytes.TrimSuffix(line, []byte("\n"))); loc != nil {
					want = append(want, fmt.Sprintf("%d:%s", n+1, line[loc[0]:loc[1]]))
				}
			}
			lines, count := findLinesUpTo(p, data, 0, len(data), "", 1000, nil)
			var got []string
			for _, l := range lines {
				got = append(got, fmt.Sprintf("%d:%s", l.LineNumber, l.data[l.s:l.e]))
			}
			if fmt.Sprint(got) != fmt.Sprint(want[:min(len(want), maxLinesPerNote)]) || count != len(want) {
				t.Errorf("%s in %s: lines %v (%d), want %v (%d)", src, name, got, count, want, len(want))
			}
			q := ContentQuery{Pattern: p, Summary: true}
			if m := matchNote(q, "n.md", data); (m != nil) != (len(want) > 0) {
				t.Errorf("%s in %s: counted %v, want %v", src, name, m != nil, len(want) > 0)
			}
		}
	}
	for _, src := range []string{`/note|file/i`, `*note*`, `/note|fi/`, `/note/`} {
		if p, err := CompilePattern(src); err != nil || p.scanLits != nil {
			t.Errorf("%s: scanLits %q, %v; want none", src, p.scanLits, err)
		}
	}
}
