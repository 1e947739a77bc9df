package search

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/vpath"
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

// TestDeferredOpenSeesOutsideEdits reopens a persisted index with Deferred, after
// edits made while nothing watched: an append in place, a new note and a deleted one.
// Pattern candidates computed while the walk runs must still name the edited and the
// new note and not the deleted one, and a ranked search after them sees the edits.
func TestDeferredOpenSeesOutsideEdits(t *testing.T) {
	dir := writeVault(t, small)
	_, ix, _ := openIndex(t, dir, Options{})
	ix.Close()
	f, err := os.OpenFile(filepath.Join(dir, "notes/engines.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("A quorble flywheel.\n")
	f.Close()
	os.WriteFile(filepath.Join(dir, "new.md"), []byte("Another quorble flywheel.\n"), 0o644)
	os.Remove(filepath.Join(dir, "people/Charles Babbage.md"))
	_, ix2, st := openIndex(t, dir, Options{Deferred: true})
	if !st.Loaded {
		t.Fatalf("not loaded: %+v", st)
	}
	for _, tc := range []struct {
		re   string
		want []vpath.Path
	}{
		{"quorble flywheel", []vpath.Path{"new.md", "notes/engines.md"}},
		{"(?i)difference engine", nil},
	} {
		re, err := syntax.Parse(tc.re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ix2.PatternCandidates(t.Context(), re)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !slices.Contains(c.Notes, w) {
				t.Errorf("%s: %s is not a candidate: %v", tc.re, w, c.Notes)
			}
		}
		if slices.Contains(c.Notes, "people/Charles Babbage.md") || slices.Contains(c.Others, "people/Charles Babbage.md") {
			t.Errorf("%s: the deleted note is still listed", tc.re)
		}
		if len(c.Notes)+len(c.Others) != len(small) {
			t.Errorf("%s: %d notes listed, want %d", tc.re, len(c.Notes)+len(c.Others), len(small))
		}
	}
	if got := search(t, ix2, Request{Query: "quorble"}); !slices.Equal(got, []string{"new.md", "notes/engines.md"}) && !slices.Equal(got, []string{"notes/engines.md", "new.md"}) {
		t.Errorf("ranked search after the deferred open: %v", got)
	}
}

// TestNarrowCandidatesGivesUpTheWalk reopens a persisted index with Deferred after an
// outside edit: a pattern most notes may match gives up the walk (the caller reads
// every note), a rare one narrows the notes as PatternCandidates does, and both the
// patterns and a ranked search after them see the edit.
func TestNarrowCandidatesGivesUpTheWalk(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("n%02d.md", i)] = fmt.Sprintf("A common word, and note %d.\n", i)
	}
	dir := writeVault(t, files)
	_, ix, _ := openIndex(t, dir, Options{})
	ix.Close()
	if err := os.WriteFile(filepath.Join(dir, "n07.md"), []byte("A common word and a zorbulent one.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(s string) *syntax.Regexp {
		re, err := syntax.Parse(s, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		return re
	}
	_, ix2, _ := openIndex(t, dir, Options{Deferred: true})
	if _, ok, err := ix2.NarrowCandidates(t.Context(), parse("common"), 0.5, false); ok || err != nil {
		t.Errorf("a pattern every note may match narrowed the notes (%v, %v)", ok, err)
	}
	c, ok, err := ix2.NarrowCandidates(t.Context(), parse("zorbulent"), 0.5, false)
	if !ok || err != nil || !slices.Equal(c.Notes, []vpath.Path{"n07.md"}) {
		t.Errorf("zorbulent: %v %v %v", c.Notes, ok, err)
	}
	if got := search(t, ix2, Request{Query: "zorbulent"}); !slices.Equal(got, []string{"n07.md"}) {
		t.Errorf("ranked search after the walk was given up: %v", got)
	}
	// A fresh deferred open whose first pattern is rare waits for its walk as before.
	_, ix3, _ := openIndex(t, dir, Options{Deferred: true})
	c, ok, err = ix3.NarrowCandidates(t.Context(), parse("zorbulent"), 0.5, false)
	if !ok || err != nil || !slices.Equal(c.Notes, []vpath.Path{"n07.md"}) {
		t.Errorf("zorbulent on a fresh open: %v %v %v", c.Notes, ok, err)
	}
}

// TestAPageGoesByTheTrigramsOverALargeDictionary: a pattern whose trigrams every
// note holds but whose text one note does ("bulent": bule, lent) is narrowed by the
// words for a count, and for a page while the dictionary is small; over a large one a
// page reads the notes in path order instead (ok is false), and the walk is given up.
func TestAPageGoesByTheTrigramsOverALargeDictionary(t *testing.T) {
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("n%02d.md", i)] = fmt.Sprintf("A bule and a lent word, note %d.\n", i)
	}
	files["n07.md"] = "A zorbulent word.\n"
	dir := writeVault(t, files)
	_, ix, _ := openIndex(t, dir, Options{})
	ix.Close()
	re, err := syntax.Parse("bulent", syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	narrow := func(page bool) (Candidates, bool) {
		t.Helper()
		_, ix, _ := openIndex(t, dir, Options{Deferred: true})
		c, ok, err := ix.NarrowCandidates(t.Context(), re, 0.5, page)
		if err != nil {
			t.Fatal(err)
		}
		return c, ok
	}
	for _, page := range []bool{false, true} {
		if c, ok := narrow(page); !ok || !slices.Equal(c.Notes, []vpath.Path{"n07.md"}) {
			t.Errorf("page %v over a small dictionary: %v %v, want n07.md narrowed by its words", page, c.Notes, ok)
		}
	}
	old := pageWordCheckTerms
	pageWordCheckTerms = 0
	t.Cleanup(func() { pageWordCheckTerms = old })
	if c, ok := narrow(true); ok {
		t.Errorf("a page over a large dictionary narrowed by the words: %v", c.Notes)
	}
	if c, ok := narrow(false); !ok || !slices.Equal(c.Notes, []vpath.Path{"n07.md"}) {
		t.Errorf("a count over a large dictionary: %v %v, want n07.md narrowed by its words", c.Notes, ok)
	}
}
