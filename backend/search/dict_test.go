package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
	"github.com/memotree/memotree/bench/vaultgen"
)

// dictQueries are ranked queries and patterns over a generated vault of the mixed
// shape (nine scripts, a vocabulary that grows with the vault), picked from its own
// text so that every kind finds something: words, prefixes, phrases, CJK runs,
// exclusions, names.
func dictQueries(t *testing.T, ix *Index) (queries, patterns []string) {
	t.Helper()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	x := ix.x
	// In byte order, not by id: ids follow the order the build's readers finished
	// in, and the same vault must ask the same questions on every run.
	ids := make([]uint32, x.numTerms())
	for tid := range ids {
		ids[tid] = uint32(tid)
	}
	slices.SortFunc(ids, func(a, b uint32) int { return strings.Compare(x.term(a), x.term(b)) })
	var common, rare, cjk []string
	for _, tid := range ids {
		term, n := x.term(tid), x.listLen(tid)
		switch {
		case isCJKWord(term) && len([]rune(term)) == 2 && n > 1 && len(cjk) < 4:
			cjk = append(cjk, term)
		case !isCJKWord(term) && n > 20 && len(common) < 6 && len(term) > 3:
			common = append(common, term)
		case !isCJKWord(term) && n == 1 && len(rare) < 6 && len(term) > 5:
			rare = append(rare, term)
		}
	}
	if len(common) < 6 || len(rare) < 6 || len(cjk) < 4 {
		t.Fatalf("the vault lacks terms to query: %v %v %v", common, rare, cjk)
	}
	byPath := make([]uint32, 0, x.n())
	for id := range uint32(x.n()) {
		byPath = append(byPath, id)
	}
	slices.SortFunc(byPath, func(a, b uint32) int { return strings.Compare(string(x.path(a)), string(x.path(b))) })
	d := x.info(byPath[7])
	queries = []string{
		common[0], rare[0], common[1] + " " + rare[1], cjk[0], cjk[1] + cjk[2],
		runes(common[2], 0, 3) + "*", runes(rare[2], 0, 4) + "*", `"` + common[3] + " " + common[4] + `"`,
		common[5] + " -" + common[0], strings.ToLower(d.title), `"` + rare[3] + `"`,
	}
	patterns = []string{common[0], rare[4], common[1] + " " + common[2], cjk[3], runes(rare[5], 1, 99)}
	return queries, patterns
}

// runes returns the runes [i, j) of s.
func runes(s string, i, j int) string {
	r := []rune(s)
	return string(r[i:min(j, len(r))])
}

// answers runs the queries and patterns on ix and returns what they found.
func answers(t *testing.T, ix *Index, queries, patterns []string) []string {
	t.Helper()
	var out []string
	for _, q := range queries {
		hits, err := ix.Search(t.Context(), Request{Query: q, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			s := ""
			if h.Snippet != nil {
				s = fmt.Sprint(*h.Snippet)
			}
			out = append(out, fmt.Sprintf("%s: %s %.3f %s", q, h.Path, h.Score, s))
		}
	}
	for _, p := range patterns {
		re, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ix.PatternCandidates(t.Context(), re)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("/%s/: %v", p, c.Notes))
	}
	return out
}

// generatedIndex generates a vault in a temporary folder and opens its index, built
// in memory and saved only when asked; it returns the folder too.
func generatedIndex(t *testing.T, o vaultgen.Options) (*vault.Vault, *Index, string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, o); err != nil {
		t.Fatal(err)
	}
	v, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	return v, ix, dir
}

// fresh builds the index of the vault at dir from its files, in memory.
func fresh(t *testing.T, dir string) *Index {
	t.Helper()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	v.RemoveInternal(indexFile)
	ix, st, err := Open(t.Context(), v.State(), Options{SaveDelay: -1})
	if err != nil || st.Loaded {
		t.Fatalf("fresh build: %+v, %v", st, err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// notePaths returns the paths of the notes ix holds, in byte order.
func notePaths(ix *Index) []vpath.Path {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []vpath.Path
	for id := range uint32(ix.x.n()) {
		if ix.x.alive(id) {
			out = append(out, ix.x.path(id))
		}
	}
	slices.Sort(out)
	return out
}

// saveAndReopen writes ix's index to its file and opens it again from there.
func saveAndReopen(t *testing.T, v *vault.Vault, ix *Index) *Index {
	t.Helper()
	ix.mu.RLock()
	data := encode(ix.x, newGen())
	ix.mu.RUnlock()
	if err := v.WriteInternal(indexFile, data); err != nil {
		t.Fatal(err)
	}
	re, st, err := Open(t.Context(), v.State(), Options{SaveDelay: -1})
	if err != nil || !st.Loaded || re.x.dict.n == 0 {
		t.Fatalf("reopen: %+v, %v", st, err)
	}
	t.Cleanup(func() { re.Close() })
	return re
}

// TestReopenedIndexAnswersAsBuilt checks that the persisted dictionary, used where it
// lies in the mapped file, answers every query as the index built in memory does:
// after a reopen, after notes are added and changed on top of it (terms entered
// since, postings added to persisted terms), after a save of both and a compaction.
func TestReopenedIndexAnswersAsBuilt(t *testing.T) {
	v, built, dir := generatedIndex(t, vaultgen.Options{Notes: 200, Seed: 5, Shape: vaultgen.ShapeMixed, MinWords: 400, MaxWords: 1000})
	queries, patterns := dictQueries(t, built)
	want := answers(t, built, queries, patterns)
	check := func(when string, ix *Index) {
		t.Helper()
		if d := cmp.Diff(want, answers(t, ix, queries, patterns)); d != "" {
			t.Errorf("%s (-built +reopened):\n%s", when, d)
		}
	}
	re := saveAndReopen(t, v, built)
	check("reopened", re)

	// Notes added and changed: new terms, and persisted terms in new notes.
	var changed []vpath.Path
	for i, text := range []string{
		"# Zqxwv\n\nzqxwvterm " + queries[0] + " appears beside " + queries[1] + ".\n",
		"---\naliases: [Ykjhg Alias]\n---\n" + queries[0] + " again, and 新词汇 with 新词.\n",
	} {
		p := vpath.Path(fmt.Sprintf("added/new %d.md", i))
		if err := os.MkdirAll(filepath.Join(dir, "added"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, string(p)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		changed = append(changed, p)
	}
	first := notePaths(built)[3] // by path: ids follow the order the build's readers finished in
	if err := os.WriteFile(filepath.Join(dir, string(first)), []byte("Rewritten: "+queries[2]+" zqxwvterm.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed = append(changed, first)
	queries = append(queries, "zqxwvterm", "ykjhg", "新词", "zqxw*")
	patterns = append(patterns, "zqxwvterm", "Ykjhg Alias")
	for _, ix := range []*Index{built, re} {
		ix.Changed(changed, false)
	}
	want = answers(t, built, queries, patterns)
	check("changed on top of the persisted index", re)
	// A save leaves the replaced notes' postings out, which the index built in
	// memory still counts: compare with an index built afresh from the files.
	want = answers(t, fresh(t, dir), queries, patterns)
	check("saved with the changes and reopened", saveAndReopen(t, v, re))

	// Most notes removed: the index compacts itself.
	re2 := saveAndReopen(t, v, re)
	var gone []vpath.Path
	for _, p := range notePaths(built)[:150] {
		if strings.HasPrefix(string(p), "added/") || p == first {
			continue
		}
		if err := os.Remove(filepath.Join(dir, string(p))); err != nil {
			t.Fatal(err)
		}
		gone = append(gone, p)
	}
	re2.Changed(gone, false)
	want = answers(t, fresh(t, dir), queries, patterns)
	check("compacted", re2)
	if re2.x.dict.n != 0 {
		t.Errorf("the reopened index was not compacted (%d dead notes)", re2.x.dead)
	}
	check("compacted, saved and reopened", saveAndReopen(t, v, re2))
}

// TestOpenDecodesNoTerm checks that loading a persisted index costs the same whatever
// its vocabulary: the dictionary is used where it lies, not decoded into a map (a
// vault of names and languages has millions of terms, whose map was most of a fresh
// process's search).
func TestOpenDecodesNoTerm(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		var b strings.Builder
		for j := range 500 {
			fmt.Fprintf(&b, "w%dx%d ", i, j) // 20,000 distinct terms
		}
		files[fmt.Sprintf("n%d.md", i)] = b.String()
	}
	_, ix, _ := openIndex(t, writeVault(t, files), Options{SaveDelay: -1})
	ix.mu.RLock()
	data := encode(ix.x, newGen())
	ix.mu.RUnlock()
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := decodeIndex(data); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 50 {
		t.Errorf("decoding an index of %d terms made %.0f allocations", ix.x.numTerms(), allocs)
	}
	x, _ := decodeIndex(data)
	for _, term := range []string{"w0x0", "w39x499", "w17x250"} {
		if id, ok := x.termID(term); !ok || x.term(id) != term || x.listLen(id) != 1 {
			t.Errorf("%s: id %d, %v", term, id, ok)
		}
	}
	if _, ok := x.termID("w40x0"); ok {
		t.Error("found a term no note holds")
	}
}

// TestManySavesKeepFewRuns checks the dictionary's runs of terms in byte order: every
// save that adds terms adds runs, and once they would be too many a save numbers
// every term afresh (rewriting every word sequence), after which the index still
// answers as one built from the files.
func TestManySavesKeepFewRuns(t *testing.T) {
	v, ix, dir := generatedIndex(t, vaultgen.Options{Notes: 60, Seed: 7, Shape: vaultgen.ShapeNames, MinWords: 200, MaxWords: 400})
	queries, patterns := []string{"qlorbit0", "qlorb*", `"vexa qlorbit3"`}, []string{"qlorbit[0-9] here", "vexa qlorbit"}
	renumbered, runs := false, 0
	for i := range maxRuns + 2 {
		ix = saveAndReopen(t, v, ix)
		if len(ix.x.dict.runs) > maxRuns {
			t.Fatalf("save %d: %d runs, want at most %d", i, len(ix.x.dict.runs), maxRuns)
		}
		renumbered = renumbered || len(ix.x.dict.runs) < runs
		runs = len(ix.x.dict.runs)
		p := fmt.Sprintf("added %d.md", i)
		text := fmt.Sprintf("vexa qlorbit%d here, and Vexa%d.\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		ix.Changed([]vpath.Path{vpath.Path(p)}, false)
	}
	if !renumbered {
		t.Error("no save numbered the terms afresh")
	}
	want := answers(t, fresh(t, dir), queries, patterns)
	if len(want) < len(queries)+len(patterns)+10 {
		t.Fatalf("the queries find too little to compare: %q", want)
	}
	if d := cmp.Diff(want, answers(t, saveAndReopen(t, v, ix), queries, patterns)); d != "" {
		t.Errorf("after many saves (-built +reopened):\n%s", d)
	}
}

// TestSaveIsTheSameOnEveryCore: a save sorts, encodes and renumbers in parts on every
// core when the index is large; the file it writes is the one a single core writes.
func TestSaveIsTheSameOnEveryCore(t *testing.T) {
	v, ix, _ := generatedIndex(t, vaultgen.Options{Notes: 120, Seed: 9, Shape: vaultgen.ShapeMixed, MinWords: 200, MaxWords: 600})
	saveWith := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		ix.mu.RLock()
		defer ix.mu.RUnlock()
		return encode(ix.x, 1)
	}
	oldTerms, oldDocs := parallelTerms, parallelDocs
	parallelTerms, parallelDocs = 1, 1
	t.Cleanup(func() { parallelTerms, parallelDocs = oldTerms, oldDocs })
	one := saveWith(1)
	for _, procs := range []int{2, 3} {
		if got := saveWith(procs); !bytes.Equal(got, one) {
			t.Errorf("the save on %d cores differs from the save on one (%d and %d bytes)", procs, len(got), len(one))
		}
	}
	// And what was written in parts answers as the index built.
	queries, patterns := dictQueries(t, ix)
	want := answers(t, ix, queries, patterns)
	re := saveAndReopen(t, v, ix)
	if d := cmp.Diff(want, answers(t, re, queries, patterns)); d != "" {
		t.Errorf("reopened after a save in parts (-built +reopened):\n%s", d)
	}
}

// TestOccurrencesAreCounted: the occurrences the merge adds up per term (a save
// numbers the terms by them) are the words of the terms in the notes' sequences.
func TestOccurrencesAreCounted(t *testing.T) {
	_, ix, _ := generatedIndex(t, vaultgen.Options{Notes: 60, Seed: 3, Shape: vaultgen.ShapeMixed, MinWords: 100, MaxWords: 300})
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	x := ix.x
	live := make([]uint32, 0, x.n())
	for id := range uint32(x.n()) {
		if x.alive(id) {
			live = append(live, id)
		}
	}
	want := x.occurrences(live)
	if x.dict.n != 0 || len(x.occ) != len(want) {
		t.Fatalf("an index built in memory: %d persisted terms, %d counts for %d terms", x.dict.n, len(x.occ), len(want))
	}
	for k := range want {
		if x.occ[k] != want[k] {
			t.Fatalf("term %q: %d occurrences counted, %d in the sequences", x.term(uint32(k)), x.occ[k], want[k])
		}
	}
}

// TestAPrefixLeavesOutTermsNoNoteHolds checks prefix queries after a save that kept
// persisted terms whose only note was rewritten without them: they stay in the
// dictionary with empty lists until a compaction, and must count for nothing (not in
// a clause's weight, not among the prefixExpansion terms a prefix stands for), so
// that the saved index ranks as one built afresh from the same files does.
func TestAPrefixLeavesOutTermsNoNoteHolds(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		var b strings.Builder
		fmt.Fprintf(&b, "Common words here, and prefone%d twice prefone%d.", i%4, i%4)
		if i%3 == 0 {
			b.WriteString(" Rare words too.")
		}
		for j := range 4 { // 160 terms under "pref", more than a prefix stands for
			fmt.Fprintf(&b, " pref%03d", 4*i+j)
		}
		files[fmt.Sprintf("n%02d.md", i)] = b.String() + "\n"
	}
	var gone strings.Builder
	gone.WriteString("Only here:")
	for j := range 30 {
		fmt.Fprintf(&gone, " pref00%02dgone", j) // first in byte order
	}
	files["gone.md"] = gone.String() + "\n"
	dir := writeVault(t, files)
	v, ix, _ := openIndex(t, dir, Options{SaveDelay: -1})
	re := saveAndReopen(t, v, ix)
	if err := os.WriteFile(filepath.Join(dir, "gone.md"), []byte("Rewritten without the words.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	re.Changed([]vpath.Path{"gone.md"}, false)
	if err := re.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	saved := saveAndReopen(t, v, re)
	if _, ok := saved.x.termID("pref0000gone"); !ok {
		t.Fatal("the saved dictionary no longer holds the rewritten note's terms: the test no longer covers what it says")
	}
	queries := []string{"pref*", "prefone*", "rare pref*", "words pref00*", `"twice pref*"`}
	if d := cmp.Diff(answers(t, fresh(t, dir), queries, nil), answers(t, saved, queries, nil)); d != "" {
		t.Errorf("-afresh +saved:\n%s", d)
	}
}

// TestTermsWhereOnEveryCore checks the scan of the dictionary shared among the cores
// against a scan of every term one by one: the same ids, and a limit that stops it
// says so.
func TestTermsWhereOnEveryCore(t *testing.T) {
	v, built, _ := generatedIndex(t, vaultgen.Options{Notes: 150, Seed: 9, Shape: vaultgen.ShapeNames})
	x := saveAndReopen(t, v, built).x
	defer func(n, procs int) { parallelScanTerms = n; runtime.GOMAXPROCS(procs) }(parallelScanTerms, runtime.GOMAXPROCS(4))
	parallelScanTerms = 1
	for _, w := range []string{"an", "ri", "e", "zzz"} {
		match := func(t []byte) bool { return bytes.Contains(t, []byte(w)) }
		var want []uint32
		for id := range uint32(x.numTerms()) {
			if match([]byte(x.term(id))) {
				want = append(want, id)
			}
		}
		got, over := x.termsWhere(match, len(want))
		slices.Sort(got)
		if over || !slices.Equal(got, want) {
			t.Errorf("%q: %d terms (over %v), want %d", w, len(got), over, len(want))
		}
		if len(want) > 0 {
			if _, over := x.termsWhere(match, len(want)-1); !over {
				t.Errorf("%q: a limit of %d terms below the %d that match is not said to be passed", w, len(want)-1, len(want))
			}
		}
	}
}
