package agent

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestValidSessionID: the hand-written check accepts exactly what `^[A-Za-z0-9_-]{1,80}$` matches.
func TestValidSessionID(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)
	alphabet := []rune("azAZ09_-.é\n \x00")
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"", "a", "A", "_", "-", "a\n", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("a", 80), strings.Repeat("a", 81)}
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
		if got, want := validSessionID(s), re.MatchString(s); got != want {
			t.Fatalf("validSessionID(%q) = %v, the regular expression says %v", s, got, want)
		}
	}
}
