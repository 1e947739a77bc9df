package search

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCompilePattern(t *testing.T) {
	tests := []struct {
		pattern string
		lit     string
		fold    bool
		match   []string
		miss    []string
	}{
		{"*punched card*", "punched card", true, []string{"on Punched Cards, then"}, []string{"punched\ncard", "punchedcard"}},
		{"engine?", "engine", true, []string{"the Engines"}, []string{"engine"}},
		{"b[ae]bbage", "bbage", true, []string{"Babbage", "BEBBAGE"}, []string{"bobbage"}},
		{"[!a]x", "x", true, []string{"bx"}, []string{"ax"}},
		{"活字*印刷", "活字", false, []string{"活字和印刷"}, []string{"印刷活字"}},
		{"/Ana(lytical)? Engine/", " Engine", false, []string{"Ana Engine", "Analytical Engine"}, []string{"analytical engine"}},
		{"/ana(lytical)? engine/i", " engine", true, []string{"ANALYTICAL ENGINE"}, []string{"anal engine"}},
		{"/算盘|活字/", "", false, []string{"算盘"}, []string{"印刷"}},
		{"/^# /", "# ", false, []string{"x\n# Title"}, []string{"x # y"}},
		{"**********************a", "a", true, []string{"bbbA"}, []string{"bbb"}},
		{"/path/to/*", "/path/to/", true, []string{"see /path/to/x"}, []string{"path to"}},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			p, err := CompilePattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if lit := string(p.lit); (p.fold && strings.ToLower(lit) != tc.lit) || (!p.fold && lit != tc.lit) || p.fold != tc.fold {
				t.Errorf("literal %q fold %v, want %q fold %v", p.lit, p.fold, tc.lit, tc.fold)
			}
			for _, s := range tc.match {
				if !p.re.MatchString(s) || !p.mayMatch([]byte(s)) {
					t.Errorf("%q does not match", s)
				}
			}
			for _, s := range tc.miss {
				if p.re.MatchString(s) {
					t.Errorf("%q matches", s)
				}
			}
		})
	}
}

func TestCompileNamePattern(t *testing.T) {
	tests := []struct {
		glob  string
		match []string
		miss  []string
	}{
		{"people/*", []string{"people/Ada Lovelace", "People/x"}, []string{"people/a/b", "x/people/y"}},
		{"**/ENIAC", []string{"machines/electronic/ENIAC", "ENIAC"}, []string{"ENIAC2", "xENIAC"}},
		{"/people/*", []string{"people/Ada Lovelace"}, []string{"x/people/y"}},
		{"*engine", []string{"Difference Engine"}, []string{"machines/Difference Engine"}},
		{"/^中文/", []string{"中文/器物/算盘"}, []string{"器物/中文"}},
	}
	for _, tc := range tests {
		p, err := CompileNamePattern(tc.glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.match {
			if !p.re.MatchString(s) {
				t.Errorf("%s: %q does not match", tc.glob, s)
			}
		}
		for _, s := range tc.miss {
			if p.re.MatchString(s) {
				t.Errorf("%s: %q matches", tc.glob, s)
			}
		}
	}
}

func TestBadPatterns(t *testing.T) {
	for _, s := range []string{"", "  ", "/(/", "/a{99999}/", "/[\\s\\S]{1000}/", "/(a{50}){5}b/", "//", "a\x00b", strings.Repeat("a", maxPatternLen+1), "\xff"} {
		if _, err := CompilePattern(s); !errors.Is(err, ErrPattern) {
			t.Errorf("CompilePattern(%q): %v, want ErrPattern", kitClip(s), err)
		}
	}
}

func kitClip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// TestPrefilterAgreesWithRegexp checks that the literal prefilter never drops a note
// the regular expression would match, over texts with case and Unicode traps.
func TestPrefilterAgreesWithRegexp(t *testing.T) {
	texts := []string{"", "ENGINE", "eNgInE room", "Kelvin \u212aelvin", "long \u017fs", "engin", "e\nngine", "x" + strings.Repeat("E", 1000) + "ngine"}
	pats := []string{"*engine*", "*kelvin*", "*ss*", "/engine/i", "/Engine/", "/k+elvin/i", "e*ngine"}
	for _, ps := range pats {
		p, err := CompilePattern(ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			if p.re.MatchString(s) && !p.mayMatch([]byte(s)) {
				t.Errorf("%s: prefilter drops %q, which matches", ps, kitClip(s))
			}
		}
	}
}

func TestIndexFoldASCII(t *testing.T) {
	for _, tc := range []struct{ data, lit string }{
		{"xxABCxx", "abc"}, {"abAbABC", "abc"}, {"ab", "abc"}, {"", "a"}, {"aaaaB", "aab"}, {"AbA", "aba"},
	} {
		want := -1
		if loc := regexp.MustCompile("(?i)" + regexp.QuoteMeta(tc.lit)).FindStringIndex(tc.data); loc != nil {
			want = loc[0]
		}
		if got := indexFoldASCII([]byte(tc.data), []byte(tc.lit)); got != want {
			t.Errorf("indexFoldASCII(%q, %q) = %d, want %d", tc.data, tc.lit, got, want)
		}
	}
}

func TestFindLinesContext(t *testing.T) {
	data := []byte("---\ntitle: x\n---\nfirst\nthe API endpoint\r\nlast line\n")
	p, err := CompilePattern("*api endpoint*")
	if err != nil {
		t.Fatal(err)
	}
	got, n := findLines(p, data, frontMatterEnd(data), len(data), "")
	got = renderAll(got)
	want := []LineMatch{{LineNumber: 5, MatchedText: "API endpoint", Context: []string{"line 4: first", "line 5: the API endpoint", "line 6: last line"}}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(LineMatch{})); d != "" || n != 1 {
		t.Errorf("findLines (-want +got), count %d:\n%s", n, d)
	}
}

func TestCatastrophicGlobIsFast(t *testing.T) {
	start := time.Now()
	p, err := CompilePattern(strings.Repeat("*", 400) + "a")
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(strings.Repeat("b", 1<<20) + "a")
	if locs := p.re.FindAllIndex(data, -1); len(locs) != 1 {
		t.Errorf("%d matches, want 1", len(locs))
	}
	// Backtracking over 400 stars would take longer than the universe; linear time
	// takes milliseconds. The bound only needs to tell the two apart, with room for a
	// loaded machine (the speed itself is BenchmarkPrefilter's business).
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}

// BenchmarkPrefilter compares the regexp run over every note with the literal
// prefilter in front of it, on 1,000 notes of 10 KB with a rare match in three.
func BenchmarkPrefilter(b *testing.B) {
	words := strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")
	notes := make([][]byte, 1000)
	for i := range notes {
		var sb strings.Builder
		for j := 0; sb.Len() < 10000; j++ {
			sb.WriteString(words[(i*7+j*13)%len(words)])
			if j%12 == 11 {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte(' ')
			}
		}
		if i%400 == 0 {
			sb.WriteString("\nA zyxwvut marker line.\n")
		}
		notes[i] = []byte(sb.String())
	}
	for _, pat := range []string{`/[zq]yxwvut\s+marker/`, `/[zq]yxwvut\s+marker/i`, `*zyxwvut*marker*`} {
		p, err := CompilePattern(pat)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("regexp-only/"+pat, func(b *testing.B) {
			for b.Loop() {
				n := 0
				for _, d := range notes {
					n += len(p.re.FindAllIndex(d, maxCountPerNote))
				}
				if n != 3 {
					b.Fatalf("%d matches", n)
				}
			}
		})
		b.Run("prefilter/"+pat, func(b *testing.B) {
			for b.Loop() {
				n := 0
				for _, d := range notes {
					if p.mayMatch(d) {
						_, c := findLines(p, d, 0, len(d), "")
						n += c
					}
				}
				if n != 3 {
					b.Fatalf("%d matches", n)
				}
			}
		})
	}
}
