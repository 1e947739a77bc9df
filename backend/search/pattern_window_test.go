package search

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestWindowFilterShape checks what the filter derives from a pattern without a
// literal longer than one byte: the anchor, the bytes compared around it and the
// reach of a match.
func TestWindowFilterShape(t *testing.T) {
	tree, err := syntax.Parse(`(?m)\d{3}-\d{4}-\d{4}`, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	w := newWindowFilter(tree)
	if w == nil {
		t.Fatal("no filter for a bounded pattern holding a literal")
	}
	if string(w.lit) != "-" || len(w.before) != 3 || len(w.after) != 9 || w.maxBefore != 3 || w.maxAfter != 9 {
		t.Fatalf("filter: literal %q, %d before, %d after, reach %d/%d; want \"-\", 3, 9, 3/9", w.lit, len(w.before), len(w.after), w.maxBefore, w.maxAfter)
	}
	if !w.after[4].has('-') || w.after[4].has('0') || !w.before[2].has('7') {
		t.Error("the positions around the literal hold the wrong bytes")
	}
	tree, _ = syntax.Parse(`(?m)\b[A-Z]{5}x?`, syntax.Perl)
	if w := newWindowFilter(tree); w == nil || len(w.run) != 5 || w.maxAfter != 1 || !w.any.has('Q') || w.any.has('q') {
		t.Fatalf("[A-Z]{5}: filter %+v, want a run of 5 capitals", w)
	}
	for _, expr := range []string{`\d+-x`, `a.*-b`, `(?i)\bq\w+`, `.{3}`} {
		tree, _ := syntax.Parse(expr, syntax.Perl)
		if w := newWindowFilter(tree); w != nil {
			t.Errorf("%s: a filter (literal %q) for a pattern that is unbounded or holds no literal", expr, w.lit)
		}
	}
}

// TestWindowFilterAgreesWithRegexp compares the filter's verdict with Go's regexp
// over the whole text, on random texts dense in the bytes the patterns look for
// (digits, dashes, line breaks, word and non-word characters, runes of two and three
// bytes, the Kelvin sign), for patterns with assertions at their ends, case folding,
// alternations and literals inside repetitions.
func TestWindowFilterAgreesWithRegexp(t *testing.T) {
	// Each pattern with a text that matches it, pieces of which are strewn in the
	// random texts (with a character changed now and then) so that some match.
	patterns := []struct{ expr, example string }{
		{`\d{3}-\d{4}-\d{4}`, "123-4567-8901"},
		{`[0-9]{4}-[0-9]{2}`, "2024-05"},
		{`\b\d{2}-\d{2}\b`, " 12-34 "},
		{`^\d-\d$`, "\n1-2\n"},
		{`^-`, "\n-"},
		{`-$`, "-\n"},
		{`\B-\w`, "a-b"},
		{`(?i)k-[a-z]{2}`, "K-ab"},
		{`(?i)x\d?-?é`, "X1-é"},
		{`(ab|cd)-(e|fg)`, "cd-fg"},
		{`(a-){2}b`, "a-a-b"},
		{`.{0,3}-.{0,2}`, "ab-c"},
		{`[^\n]{2}中-`, "ab中-"},
		{`\s-\s`, " - "},
		{`(?s).-.`, "\n-\n"},
		{`é-\d`, "é-1"},
		{`x?y?-`, "xy-"},
		{`[A-Z]{5}`, "ABCDE"},
		{`\b[0-9]{2}[a-c]\b`, " 12b "},
		{`[0-9]{3}x?[a-c]{2}`, "123xab"},
		{`(?i)[0-9]{2}`, "12"},
		{`^[k-m]{2}$`, "\nkl\n"},
	}
	alphabet := []string{"0", "1", "7", "-", "\n", " ", "a", "b", "k", "K", "x", "y", "é", "中", "_", "c", "d", "A", "Q", "l"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pt := range patterns {
		expr := pt.expr
		p, err := newPattern(expr, "(?m)"+expr)
		if err != nil {
			t.Fatal(err)
		}
		if p.win == nil {
			t.Errorf("%s: no window filter", expr)
			continue
		}
		re := regexp.MustCompile("(?m)" + expr)
		matched, unsure := 0, 0
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(8) {
				for range rng.IntN(6) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				ex := []rune(pt.example)
				if rng.IntN(2) == 0 {
					ex[rng.IntN(len(ex))] = []rune(alphabet[rng.IntN(len(alphabet))])[0]
				}
				if rng.IntN(20) == 0 {
					ex[rng.IntN(len(ex))] = '\u212a' // the Kelvin sign, which folds to k
				}
				b.WriteString(string(ex[rng.IntN(len(ex)):]))
			}
			text := []byte(b.String())
			want := re.Match(text)
			if want {
				matched++
			}
			// The whole text, and a region inside it (the body after a front matter).
			for _, from := range []int{0, min(3, len(text))} {
				for from < len(text) && text[from]&0xC0 == 0x80 {
					from++
				}
				region := re.Match(text[from:])
				switch p.win.regionMatches(text, from, len(text), p.re.FindIndex) {
				case windowMatch:
					if !region {
						t.Fatalf("%s: the windows find a match in %q (from %d), the regexp none", expr, text, from)
					}
				case windowNoMatch:
					if region {
						t.Fatalf("%s: the windows find no match in %q (from %d), the regexp does", expr, text, from)
					}
				default:
					if !hasFoldTrap(text) {
						unsure++ // (a text with a Kelvin sign is left unsure on purpose)
					}
				}
				if got := p.regionMatches(text, from, len(text), nil); got != region {
					t.Fatalf("%s: regionMatches(%q, %d) = %v, want %v", expr, text, from, got, region)
				}
			}
		}
		if matched < 100 || matched > 2900 {
			t.Errorf("%s: %d of 3000 texts match: the test would prove little", expr, matched)
		}
		if unsure > 300 {
			t.Errorf("%s: %d of 6000 regions left unsure: the filter hardly decides", expr, unsure)
		}
	}
}
