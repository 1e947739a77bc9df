package graph

import (
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// Names in NFC and NFD are one name: Lookup, Resolve and SameName see through the
// form, and when both files exist the exact spelling wins.
func TestUnicodeForms(t *testing.T) {
	const nfc, nfd = "Caf\u00e9", "Cafe\u0301"
	g := build(t, []string{"a/" + nfd + ".md", "Ren\u00e9e.md"}, map[string]*note.Note{"src.md": note.Parse([]byte("[[" + nfc + "]] [[Rene\u0301e]]"))})
	for _, name := range []string{nfc, nfd, strings.ToUpper(nfc), "a/" + nfc} {
		if p, err := g.Lookup(name); err != nil || p != vpath.Path("a/"+nfd+".md") {
			t.Errorf("Lookup(%+q) = %q, %v", name, p, err)
		}
	}
	if p, err := g.Lookup("Rene\u0301e"); err != nil || p != "Ren\u00e9e.md" {
		t.Errorf("Lookup(Renée decomposed) = %q, %v", p, err)
	}
	if out := g.Outlinks("src.md"); len(out) != 2 {
		t.Errorf("links across forms resolve to %v", out)
	}
	if twins := g.SameName(vpath.Path("a/" + nfc + ".md")); len(twins) != 1 || twins[0] != vpath.Path("a/"+nfd+".md") {
		t.Errorf("SameName = %v", twins)
	}
	g2 := build(t, []string{nfc + ".md", nfd + ".md"}, nil)
	for _, name := range []string{nfc, nfd} {
		if p, err := g2.Lookup(name); err != nil || string(p) != name+".md" {
			t.Errorf("both forms exist: Lookup(%+q) = %+q, %v", name, p, err)
		}
	}
}

// Ideographs take the fast path of fold and appendFold; the result must be what the
// general path (normalise, then fold rune by rune) gives, also when a combining mark
// or a letter with case follows them.
func TestFoldIdeographs(t *testing.T) {
	general := func(s string) string { return strings.Map(foldRune, nfc(s)) }
	for _, s := range []string{"知识图谱", "笔记 Note 12", "ABC知识", "知识\u0301é", "漢\u3099字", "CAFE\u0301 笔记", "\u4E00\u9FFF\u3400\u4DBF"} {
		if got, want := fold(s), general(s); got != want {
			t.Errorf("fold(%+q) = %+q, want %+q", s, got, want)
		}
		if got, want := string(appendFold([]byte("x/"), s)), "x/"+general(s); got != want {
			t.Errorf("appendFold(%+q) = %+q, want %+q", s, got, want)
		}
	}
}

// TestSameFold checks that sameFold, which compares two ASCII names without folding
// them, agrees with comparing their folds, on ASCII, accented names in both forms,
// the Kelvin sign (which folds to k) and ideographs; and that a relation written
// "[[Ada Lovelace]]" is carried by its front matter link in another case only.
func TestSameFold(t *testing.T) {
	names := []string{"Ada", "ada", "ADA", "Ad", "Ada ", "a/B", "A/b", "Caf\u00e9", "CAFE\u0301", "cafe",
		"\u212aelvin", "kelvin", "Kelvin", "笔记", "笔记A", "笔记a", "", "[x]", "[X]"}
	for _, a := range names {
		for _, b := range names {
			if got, want := sameFold(a, b), fold(a) == fold(b); got != want {
				t.Errorf("sameFold(%+q, %+q) = %v, folds equal: %v", a, b, got, want)
			}
		}
	}
	carrier := fmLink("ada lovelace", 2)
	other := fmLink("Ada Lovelace", 3) // another line: a link of its own
	g := build(t, nil, map[string]*note.Note{
		"src.md":          {Links: []note.Link{carrier, other}, Relations: []note.Relation{{Type: "knows", To: "[[Ada Lovelace]]", Line: 2}}},
		"Ada Lovelace.md": {},
	})
	var types []string
	for _, e := range g.Outlinks("src.md") {
		types = append(types, e.Type)
	}
	if want := []string{"links to", "knows"}; strings.Join(types, ",") != strings.Join(want, ",") {
		t.Errorf("edges of src.md: %v, want %v", types, want)
	}
}
