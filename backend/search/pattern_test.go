package search

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// TestPatternCandidatesNeverMissAMatch: for many regular expressions over a vault of
// varied text, every note the regexp matches is a candidate (the filters may only
// give false positives), and selective patterns do narrow the set.
func TestPatternCandidatesNeverMissAMatch(t *testing.T) {
	words := []string{"Analytical", "engine", "Babbage", "Lovelace", "KELVIN", "straße", "ſong", "链接", "反向链接", "e-mail", "x", "zz", "API", "Kafka", "SQL"}
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	for i := range 60 {
		var b strings.Builder
		for range 5 + rng.IntN(40) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString([]string{" ", "\n", ", ", "-", ""}[rng.IntN(5)])
		}
		files[string(rune('a'+i%26))+strings.Repeat("n", i/26)+".md"] = b.String()
	}
	files["kelvin.md"] = "The \u212Aelvin sign folds to k.\n" // K (U+212A)
	files["fence.md"] = "---\ntags: [x]\nkey: alpha\n---\nbeta gamma\n"
	files["long.md"] = "Zuse built the Z3 in Berlin; the Zuse Z3 ran programs from punched film.\n"
	dir := writeVault(t, files)
	_, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	patterns := []string{"engine", "(?i)ENGINE", "(?i)kelvin", "Lovelace|Babbage", "(?i)anal(ytical)? engine", "反向链接", "链接", "e-mail", "[Ee]ngine", "x+zz", "(?i)api", "(?i)kafka", "(?i)ſong", "(?i)song", "(?i)strasse", "straße", "^engine$", "engine\\s+Babbage", "a.b", "zz?", "(?s)Kafka.*SQL", "(?i)sql|api", "Ba(bb|dd)age", "\\bSQL\\b", "(?i)lytical eng", "ytical", "ical engine, Bab", "向链", "(?i)e-MAIL", "nalytical\\s+engine", "alpha\\n---\\nbeta", "Zuse Z3 ran", "use Z3 r", "Berlin; the Zu", "(?i)punched FILM"}
	narrowed := 0
	for _, pat := range patterns {
		re := regexp.MustCompile("(?m)" + pat)
		tree, err := syntax.Parse("(?m)"+pat, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ix.PatternCandidates(t.Context(), tree)
		if err != nil {
			t.Fatal(err)
		}
		if c.Narrowed {
			narrowed++
		}
		for name, text := range files {
			if re.MatchString(text) && !slices.Contains(c.Notes, pathOf(name)) {
				t.Errorf("%s matches %s but is not a candidate (required %v)", pat, name, RequiredTrigrams(tree))
			}
		}
	}
	if narrowed < len(patterns)/2 {
		t.Errorf("only %d of %d patterns were narrowed by the trigram filters", narrowed, len(patterns))
	}
}
