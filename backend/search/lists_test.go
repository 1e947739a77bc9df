package search

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListRoundTrip writes posting lists of every kind (empty, one posting, short
// and long, dense and sparse, with large gaps and weights, some documents removed)
// and checks that each reads back as it was, in whichever form the encoder chose.
func TestListRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const docs = 1 << 20
	gen := func(n, maxGap, maxTF int) []posting {
		var out []posting
		doc := -1
		for range n {
			doc += 1 + r.IntN(maxGap)
			tf := 1
			if maxTF > 1 {
				tf = 1 + r.IntN(maxTF)
			}
			out = append(out, posting{doc: uint32(doc), tf: float32(tf)})
		}
		return out
	}
	tests := []struct {
		name string
		list []posting
	}{
		{"empty", nil},
		{"first document", []posting{{doc: 0, tf: 1}}},
		{"one late document", []posting{{doc: docs - 1, tf: 3}}},
		{"short sparse", gen(5, 50000, 1)},
		{"every document", gen(1000, 1, 1)},
		{"dense with weights", gen(777, 3, 40)},
		{"one block exactly", gen(listBlock, 2, 7)},
		{"large weights", gen(300, 2, 1<<20)},
		{"long sparse", gen(2000, 400, 2)},
		{"dense with one far note", append(gen(300, 2, 2), posting{doc: 900000, tf: 70000})},
		{"weights mostly one", func() []posting {
			l := gen(1000, 1, 1)
			for i := 0; i < len(l); i += 37 {
				l[i].tf = float32(1 + i)
			}
			return l
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			identity := make([]uint32, docs)
			for i := range identity {
				identity[i] = uint32(i)
			}
			raw := encodeList(nil, tt.list, identity, nil)
			got := decodeList(raw, docs)
			want := tt.list
			if want == nil {
				want = []posting{}
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(posting{})); diff != "" {
				t.Errorf("decoded list (-want +got):\n%s", diff)
			}
			// Every other document removed: the rest renumbered.
			half := make([]uint32, docs)
			var kept []posting
			for i := range half {
				half[i] = ^uint32(0)
				if i%2 == 1 {
					half[i] = uint32(i / 2)
				}
			}
			for _, p := range tt.list {
				if p.doc%2 == 1 {
					kept = append(kept, posting{doc: p.doc / 2, tf: p.tf})
				}
			}
			if kept == nil {
				kept = []posting{}
			}
			got = decodeList(encodeList(nil, tt.list, half, nil), docs)
			if diff := cmp.Diff(kept, got, cmp.AllowUnexported(posting{})); diff != "" {
				t.Errorf("renumbered list (-want +got):\n%s", diff)
			}
			// A list cut short is refused, never misread.
			if len(raw) > 2 {
				if cut := decodeList(raw[:len(raw)/2], docs); cut != nil && len(cut) == len(tt.list) && cmp.Equal(cut, tt.list, cmp.AllowUnexported(posting{})) {
					t.Errorf("a list cut in half decoded whole")
				}
			}
		})
	}
}

// TestDenseListsArePacked checks the point of the packed form: a term in every
// document takes well under a byte per posting, and a few large weights among small
// ones (a word in some titles) do not widen every posting of their blocks.
func TestDenseListsArePacked(t *testing.T) {
	var list []posting
	for i := range 10000 {
		list = append(list, posting{doc: uint32(i), tf: float32(1 + i%3)})
	}
	remap := make([]uint32, 10000)
	for i := range remap {
		remap[i] = uint32(i)
	}
	if n := len(encodeList(nil, list, remap, nil)); n > 4000 {
		t.Errorf("a list of 10,000 postings with gaps 1 and weights up to 3 takes %d bytes, want at most 4,000", n)
	}
	for i := 0; i < len(list); i += 50 {
		list[i].tf = 1000
	}
	if n := len(encodeList(nil, list, remap, nil)); n > 5000 {
		t.Errorf("with every 50th weight 1,000 it takes %d bytes, want at most 5,000", n)
	}
}
