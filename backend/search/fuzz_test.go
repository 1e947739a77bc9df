package search

import (
	"regexp/syntax"
	"testing"
)

// FuzzParseQuery: any query parses without panicking, and a clause's terms are never
// empty strings.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"analytical engine", `"linked mentions"`, "engin*", "-draft x", "如何给笔记设置别名", `"双向 链接`, "* - \"\"", "e-mail*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, c := range parseQuery(q) {
			if len(c.terms) == 0 {
				t.Fatalf("%q: a clause without terms: %+v", q, c)
			}
			for _, term := range c.terms {
				if term == "" {
					t.Fatalf("%q: an empty term in %+v", q, c)
				}
			}
		}
	})
}

// FuzzDecodeIndex: a damaged index file is refused or read, never a panic; what is
// read can be used by a query.
func FuzzDecodeIndex(f *testing.F) {
	x := newPostings()
	an := analyzerPool.Get().(*analyzer)
	x.add(an.analyze("a.md", []byte("---\ntags: [x]\n---\nAda Lovelace 反向链接\n")), bloomFor([]byte("Ada")))
	good := encode(x, 1)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("MTSEARCH"))
	f.Fuzz(func(t *testing.T, data []byte) {
		y, err := decodeIndex(data)
		if err != nil {
			return
		}
		for tid := range y.lists {
			y.list(tid)
			y.nameDocs(y.names[tid])
		}
		tree, _ := syntax.Parse("ada lovelace", syntax.Perl)
		y.wordCandidates(literalAlternatives(tree))
		for id := range uint32(y.n()) {
			mayMatch(y.filter(id), RequiredTrigrams(tree))
			y.info(id)
			y.lookup(y.path(id))
			y.nameTermsOf(id)
		}
	})
}
