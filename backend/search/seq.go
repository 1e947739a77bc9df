package search

import (
	"bytes"
	"encoding/binary"
	"math"
)

// A word sequence is a note's words as term ids, each written as an unsigned LEB128
// varint (binary.AppendUvarint). Term ids are given in the order terms are first
// met, so the common words of a vault get the small ids and most words take one or
// two bytes rather than four. The encoding is self-delimiting: a byte below 0x80 ends
// a number, so a run of ids encoded the same way is found with a byte search
// (vectorised) and a check that the match starts where a number does. (A code with
// more one-byte ids — 208 ending byte values, 48 continuing — took 7% fewer bytes on
// Chinese text but made the first byte a phrase search looks for one of 48 values
// instead of 128, and pattern candidates 10-40% slower.)

// seqTierEnds are the ids from which an id takes one more byte in a sequence.
var seqTierEnds = []int{1 << 7, 1 << 14, 1 << 21, 1 << 28}

// appendSeq appends id to a word sequence.
func appendSeq(seq []byte, id uint32) []byte { return binary.AppendUvarint(seq, uint64(id)) }

// seqPattern encodes ids as they appear in a sequence.
func seqPattern(ids []uint32) []byte {
	pat := make([]byte, 0, 2*len(ids))
	for _, id := range ids {
		pat = appendSeq(pat, id)
	}
	return pat
}

// atBoundary reports whether a number of seq starts at offset i.
func atBoundary(seq []byte, i int) bool { return i == 0 || seq[i-1] < 0x80 }

// seqNext decodes the id at offset i and returns it with the offset of the next one;
// ok is false at the end or on a damaged sequence.
func seqNext(seq []byte, i int) (id uint32, next int, ok bool) {
	if i >= len(seq) {
		return 0, i, false
	}
	if c := seq[i]; c < 0x80 {
		return uint32(c), i + 1, true
	}
	v, n := binary.Uvarint(seq[i:])
	if n <= 0 || v > math.MaxUint32 {
		return 0, len(seq), false
	}
	return uint32(v), i + n, true
}

// seqPrev returns the offset where the number ending just before offset end starts
// (end must be a boundary greater than 0).
func seqPrev(seq []byte, end int) int {
	j := end - 1
	for j > 0 && seq[j-1] >= 0x80 {
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
		if c < 0x80 {
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
