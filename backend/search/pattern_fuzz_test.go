package search

import (
	"testing"
	"unicode/utf8"
)

// FuzzSearchPattern checks that compiling any pattern never panics, and that the
// literal prefilter never drops a text the regular expression matches.
func FuzzSearchPattern(f *testing.F) {
	for _, s := range []string{"*engine*", "/a(b|c)+d/i", "[!x]?y", "活字*印刷", "/^# /m", "**/x", "[", "/(/", "/\\Qa*\\E/", "K*elvin"} {
		f.Add(s, "the Engine room\nabd ACD\n# title\n\u212aelvin 活字和印刷")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		for _, compile := range []func(string) (*Pattern, error){CompilePattern, CompileNamePattern} {
			p, err := compile(pattern)
			if err != nil {
				continue
			}
			if !utf8.ValidString(text) {
				continue
			}
			if p.re.MatchString(text) && !p.mayMatch([]byte(text)) {
				t.Fatalf("%q: prefilter (literal %q, fold %v) drops %q", pattern, p.lit, p.fold, text)
			}
			if len(text) < 4096 {
				data := []byte(text)
				findLines(p, data, 0, len(data), "")
			}
		}
	})
}
