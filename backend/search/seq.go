package search

import (
	"bytes"
	"math"
)

// A word sequence is a note's words as term ids, each written in a byte code of our
// own: a byte below seqTerminal ends a number, bytes from seqTerminal on continue it
// (seqRadix values each). An id below 208 takes one byte, below 10,192 two, below
// 489,424 three. Term ids are given in the order terms are first met, so the common
// words of a vault get the small ids and most words take one or two bytes rather
// than four; with 208 one-byte ids rather than a varint's 128, Chinese text (whose
// few hundred common characters are most of its words) takes 8% fewer bytes and
// English 4%, at the cost of a third byte for rare names past 10,192 ids. The code is
// self-delimiting: a number ends at a byte below seqTerminal, so a run of ids encoded
// the same way is found with a byte search (vectorised) and a check that the match
// starts where a number does.

// seqTerminal is the number of byte values that end a number; seqRadix the number
// that continue one.
const (
	seqTerminal = 208
	seqRadix    = 256 - seqTerminal
)

// seqTierEnds are the ids from which an id takes one more byte in a sequence.
var seqTierEnds = func() []int {
	var out []int
	end, span := 0, seqTerminal
	for end+span <= 1<<32 {
		end += span
		out = append(out, end)
		span *= seqRadix
	}
	return out
}()

// appendSeq appends id to a word sequence.
func appendSeq(seq []byte, id uint32) []byte {
	if id < seqTerminal {
		return append(seq, byte(id))
	}
	v := uint64(id)
	base, span, n := uint64(0), uint64(seqTerminal), 0
	for v >= base+span {
		base += span
		span *= seqRadix
		n++
	}
	// The least significant digit first: a phrase search looks for a pattern's
	// first byte (bytes.Index), which then varies most from id to id.
	r := v - base
	var digits [8]byte
	for k := range n {
		digits[k] = byte(seqTerminal + r%seqRadix)
		r /= seqRadix
	}
	last := byte(r) // below seqTerminal: span is seqRadix^n * seqTerminal
	return append(append(seq, digits[:n]...), last)
}

// seqPattern encodes ids as they appear in a sequence.
func seqPattern(ids []uint32) []byte {
	pat := make([]byte, 0, 2*len(ids))
	for _, id := range ids {
		pat = appendSeq(pat, id)
	}
	return pat
}

// atBoundary reports whether a number of seq starts at offset i.
func atBoundary(seq []byte, i int) bool { return i == 0 || seq[i-1] < seqTerminal }

// seqNext decodes the id at offset i and returns it with the offset of the next one;
// ok is false at the end or on a damaged sequence.
func seqNext(seq []byte, i int) (id uint32, next int, ok bool) {
	if i >= len(seq) {
		return 0, i, false
	}
	if c := seq[i]; c < seqTerminal {
		return uint32(c), i + 1, true
	}
	var base, r, scale uint64 = 0, 0, 1
	for j := i; j < len(seq) && j-i < 6; j++ {
		c := uint64(seq[j])
		if c < seqTerminal {
			v := base + r + c*scale
			if v > math.MaxUint32 {
				break
			}
			return uint32(v), j + 1, true
		}
		r += (c - seqTerminal) * scale
		scale *= seqRadix
		base = base*seqRadix + seqTerminal
	}
	return 0, len(seq), false
}

// seqPrev returns the offset where the number ending just before offset end starts
// (end must be a boundary greater than 0).
func seqPrev(seq []byte, end int) int {
	j := end - 1
	for j > 0 && seq[j-1] >= seqTerminal {
		j--
	}
	return j
}

// seqFind returns the offset of the first occurrence of pat in seq at or after from
// that starts at a number boundary, or -1.
func seqFind(seq, pat []byte, from int) int {
	for from < len(seq) {
		i := bytes.Index(seq[from:], pat)
		if i < 0 {
			return -1
		}
		at := from + i
		if atBoundary(seq, at) {
			return at
		}
		from = at + 1
	}
	return -1
}

// seqLen counts the words of a sequence.
func seqLen(seq []byte) int {
	n := 0
	for _, c := range seq {
		if c < seqTerminal {
			n++
		}
	}
	return n
}

// remapSeq rewrites a sequence with every id passed through m.
func remapSeq(seq []byte, m []uint32) []byte {
	out := make([]byte, 0, len(seq))
	for i := 0; i < len(seq); {
		id, next, ok := seqNext(seq, i)
		if !ok {
			break
		}
		if id != seqBreak && int(id) < len(m) {
			id = m[id]
		}
		out = appendSeq(out, id)
		i = next
	}
	return out
}
