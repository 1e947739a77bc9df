// Package matchtest checks a hand-written string check against the regular expression
// it replaces (the checks exist because compiling regexps at start-up costs every
// process), on chosen edge cases and 20,000 random strings.
package matchtest

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// AgreesWithRegexp fails t unless check(s) equals the match of pattern for the edge
// cases of length and character class and for random strings over a mixed alphabet.
func AgreesWithRegexp(t *testing.T, pattern string, check func(string) bool) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	alphabet := []rune("azAZ09_-.é\n \x00")
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"", "a", "A", "_", "-", "a\n"}
	for _, n := range []int{63, 64, 65, 80, 81} {
		cases = append(cases, strings.Repeat("a", n))
	}
	for range 20000 {
		var b strings.Builder
		n := rng.IntN(90)
		if rng.IntN(2) == 0 {
			n = rng.IntN(4)
		}
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := check(s), re.MatchString(s); got != want {
			t.Fatalf("check(%q) = %v, the regular expression %s says %v", s, got, pattern, want)
		}
	}
}
