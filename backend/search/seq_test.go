package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveHas reports whether ids hold want[0], want[1], … consecutively, each drawn
// from its set.
func naiveHas(ids []uint32, sets []termSet) bool {
	for i := 0; i+len(sets) <= len(ids); i++ {
		ok := true
		for j, s := range sets {
			if !s.has(ids[i+j]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestSeqSearchMatchesNaive checks the sequence searches (seqHas,
// seqHasSets and its anchored form) against a plain scan of the decoded ids, on ids
// of one to five bytes, so that a match across a number boundary would be caught
// (the sets hold ids below 2^21, the sequences longer ones too).
func TestSeqSearchMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() uint32 {
		switch r.IntN(4) {
		case 0:
			return uint32(r.IntN(128))
		case 1:
			return uint32(r.IntN(1 << 14))
		case 3:
			return uint32(seqTierEnds[r.IntN(len(seqTierEnds))] - 1 + r.IntN(3))
		case 2:
			return uint32(r.IntN(1 << 21))
		}
		return r.Uint32()
	}
	for round := range 3000 {
		vocab := make([]uint32, 2+r.IntN(12))
		for i := range vocab {
			vocab[i] = pick()
		}
		ids := make([]uint32, r.IntN(40))
		for i := range ids {
			ids[i] = vocab[r.IntN(len(vocab))]
		}
		seq := seqPattern(ids)
		if seqLen(seq) != len(ids) {
			t.Fatalf("seqLen = %d, want %d", seqLen(seq), len(ids))
		}
		k := 1 + r.IntN(3)
		sets := make([]termSet, k)
		want := make([]uint32, k)
		for j := range sets {
			sets[j] = newTermSet(1 << 21) // ids past it never match: they are in no set
			n := 1 + r.IntN(2)
			if round%2 == 0 {
				n = 1
			}
			for range n {
				id := vocab[r.IntN(len(vocab))] & (1<<21 - 1)
				sets[j].add(id)
				want[j] = id
			}
		}
		exp := naiveHas(ids, sets)
		if got := seqHasSets(seq, sets); got != exp {
			t.Fatalf("seqHasSets(%v, %v) = %v, want %v", ids, want, got, exp)
		}
		if round%2 == 0 {
			if got := seqHas(seq, phraseSpec{want: want}); got != exp {
				t.Fatalf("seqHas(%v, %v) = %v, want %v", ids, want, got, exp)
			}
		}
		m := make([]uint32, 0)
		if got := remapSeq(seq, m); !slices.Equal(got, seq) {
			t.Fatalf("remap with no ids changed %v", ids)
		}
	}
}

// TestSeqCodeRoundTrip checks the sequence code at the edges of every length: each id
// reads back, takes one more byte past each tier's end, and the largest id fits.
func TestSeqCodeRoundTrip(t *testing.T) {
	ids := []uint32{0, 1, 127, 1<<32 - 1, 1<<32 - 2}
	for _, end := range seqTierEnds {
		ids = append(ids, uint32(end-1), uint32(end), uint32(end+1))
	}
	for _, id := range ids {
		seq := appendSeq([]byte{7}, id)
		got, next, ok := seqNext(seq, 1)
		if !ok || got != id || next != len(seq) {
			t.Errorf("id %d: read %d, %v, next %d of %d", id, got, ok, next, len(seq))
		}
		if seqLen(seq) != 2 || seqPrev(seq, len(seq)) != 1 {
			t.Errorf("id %d: %d words, last starting at %d", id, seqLen(seq), seqPrev(seq, len(seq)))
		}
	}
	for k, end := range seqTierEnds {
		if n := len(appendSeq(nil, uint32(end-1))); n != k+1 {
			t.Errorf("id %d takes %d bytes, want %d", end-1, n, k+1)
		}
		if n := len(appendSeq(nil, uint32(end))); n != k+2 {
			t.Errorf("id %d takes %d bytes, want %d", end, n, k+2)
		}
	}
}
