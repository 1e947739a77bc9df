package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
)

// appendNotes are notes a relation may be added to: ordinary ones and odd ones that
// appendRelationsKey must either handle exactly or leave to SetProperties.
var appendNotes = []string{
	"---\nentity type: person\ndate created: 2026-11-22T20:09:03Z\ndate modified: 2026-11-22T20:09:03Z\n---\n\nEntity 1 is a person.\n",
	"---\ntitle: x\n---\n",
	"---\ntitle: x\n# a comment\n---\nbody\n",
	"---\ntitle: x\n\n---\nbody\n",
	"---\nsummary: |\n  line one\n  line two\n---\nbody\n",
	"---\nsummary: |+\n  kept\n\n---\nbody\n",
	"---\n{a: 1, b: 2}\n---\nbody\n",
	"---\ntags: [a, b]\n---\n",
	"---\r\ntitle: x\r\n---\r\nbody\r\n",
	"\ufeff---\ntitle: x\n---\nbody\n",
	"---\n---\nbody\n",
	"---\ntitle: x\n---",
	"---\nrelations:\n---\nbody\n",
	"---\nrelations: []\n---\nbody\n",
	"---\nlist:\n  - a\n  - b\n---\n",
	"---\nnested:\n  key: value\n  deeper:\n    k: v\n---\n",
	"no front matter\n",
	"---\ntitle: x\n...\nbody\n",
}

// appendRels are relations (type, target) to add.
var appendRels = [][2]string{
	{"knows", "bench/Entity 00002"}, {"works on", "Engine"}, {"yes", "x"}, {"a: b", "y"},
	{"part of", "東京"}, {"rel", "café/x"}, {"rel", "a#b"}, {"rel", "it's"}, {"knows", "1"},
	{"Knows", "v1.2 (draft)"}, {"null", "x"}, {"x", "- y"},
}

// TestAppendRelationsKeyMatchesSetProperties checks that whenever appendRelationsKey
// rewrites a note itself, its bytes are those of the SetProperties path.
func TestAppendRelationsKeyMatchesSetProperties(t *testing.T) {
	done := 0
	for _, src := range appendNotes {
		for i := range appendRels {
			for k := 1; k <= 2; k++ {
				rels := []([2]string){appendRels[i], appendRels[(i+k)%len(appendRels)]}[:k]
				n := note.Parse([]byte(src))
				seq, absent, err := relationsSeq([]byte(src), n)
				if err != nil || !absent {
					continue
				}
				for _, r := range rels {
					seq.Content = append(seq.Content, relationItem(r[0], r[1]))
				}
				got, ok := appendRelationsKey([]byte(src), n, seq)
				if !ok {
					continue
				}
				done++
				want, err := note.SetProperties([]byte(src), []note.Property{{Key: relationsKey, Value: seq}}, nil)
				if err != nil {
					t.Fatalf("%q: appendRelationsKey wrote a note SetProperties refuses: %v", src, err)
				}
				if diff := cmp.Diff(string(dropEmptyFrontMatter(want)), string(got)); diff != "" {
					t.Fatalf("%q + %v (-want +got):\n%s", src, rels, diff)
				}
			}
		}
	}
	if done < 10 {
		t.Fatalf("appendRelationsKey handled only %d cases: the test compares too little", done)
	}
}

// FuzzAppendRelationsKey checks the same for any note and relation.
func FuzzAppendRelationsKey(f *testing.F) {
	for _, src := range appendNotes {
		for _, r := range appendRels[:3] {
			f.Add(src, r[0], r[1])
		}
	}
	f.Fuzz(func(t *testing.T, src, typ, to string) {
		n := note.Parse([]byte(src))
		seq, absent, err := relationsSeq([]byte(src), n)
		if err != nil || !absent {
			return
		}
		seq.Content = append(seq.Content, relationItem(typ, to))
		got, ok := appendRelationsKey([]byte(src), n, seq)
		if !ok {
			return
		}
		want, err := note.SetProperties([]byte(src), []note.Property{{Key: relationsKey, Value: seq}}, nil)
		if err != nil {
			t.Fatalf("%q: appendRelationsKey wrote a note SetProperties refuses: %v", src, err)
		}
		if string(dropEmptyFrontMatter(want)) != string(got) {
			t.Fatalf("%q + %q → %q: got %q, want %q", src, typ, to, got, want)
		}
	})
}
