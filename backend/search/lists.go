package search

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// A persisted posting list starts with a uvarint: the number of postings shifted left,
// its low bit saying how the postings follow. Short lists (most terms of a large
// vocabulary hold one or two notes) are varints: per posting, the gap to the previous
// document shifted left, its low bit set when the weight is 1, else the weight after
// it. Longer lists are packed in blocks of listBlock postings: the gaps less one, then
// the weights less one, each as a byte giving a width in bits (its high bit set when
// exceptions follow: then a byte counting them), every value's low bits packed at
// that width (least significant bits first), and the exceptions — the values too wide
// for it — as the position in the block and a uvarint of the bits above the width.
// The width is the one that makes the block shortest, so one large gap or weight
// does not widen a whole block. The encoder writes whichever form is shorter: the
// common words of a vault, in most notes with small gaps and weights, take a few bits
// per posting instead of two bytes.

// listBlock is how many postings one packed block holds.
const listBlock = 128

// listPacked is the low bit of a list's count saying the postings are packed.
const listPacked = 1

// listScratch is space reused by encodeList.
type listScratch struct{ docs, tfs, gaps []uint32 }

// encodeList appends the postings of list whose documents remap keeps, renumbered,
// to out (the count first); sc may be nil.
func encodeList(out []byte, list []posting, remap []uint32, sc *listScratch) []byte {
	if sc == nil {
		sc = &listScratch{}
	}
	docs, tfs := sc.docs[:0], sc.tfs[:0]
	for _, p := range list {
		if r := remap[p.doc]; r != ^uint32(0) {
			docs = append(docs, r)
			tfs = append(tfs, max(uint32(p.tf), 1))
		}
	}
	sc.docs, sc.tfs = docs, tfs
	n := len(docs)
	if n < 4 || varintSize(docs, tfs) <= packedSize(docs, tfs) {
		out = binary.AppendUvarint(out, uint64(n)<<1)
		prev := uint32(0)
		for i, d := range docs {
			if tfs[i] == 1 {
				out = binary.AppendUvarint(out, uint64(d-prev)<<1|1)
			} else {
				out = binary.AppendUvarint(out, uint64(d-prev)<<1)
				out = binary.AppendUvarint(out, uint64(tfs[i]))
			}
			prev = d
		}
		return out
	}
	out = binary.AppendUvarint(out, uint64(n)<<1|listPacked)
	gaps := slices.Grow(sc.gaps[:0], n)[:n]
	sc.gaps = gaps
	prev := int64(-1)
	for i, d := range docs {
		gaps[i] = uint32(int64(d) - prev - 1)
		tfs[i]--
		prev = int64(d)
	}
	for s := 0; s < n; s += listBlock {
		e := min(s+listBlock, n)
		out = packBlock(out, gaps[s:e])
		out = packBlock(out, tfs[s:e])
	}
	return out
}

// varintSize is the size of the varint form of a list (without its count).
func varintSize(docs, tfs []uint32) int {
	size, prev := 0, uint32(0)
	for i, d := range docs {
		size += uvarintLen(uint64(d-prev)<<1 | 1)
		if tfs[i] != 1 {
			size += uvarintLen(uint64(tfs[i]))
		}
		prev = d
	}
	return size
}

// packedSize is the size of the packed form of a list (without its count).
func packedSize(docs, tfs []uint32) int {
	size := 0
	prev := int64(-1)
	var gaps, ws [listBlock]uint32
	for s := 0; s < len(docs); s += listBlock {
		e := min(s+listBlock, len(docs))
		for i := s; i < e; i++ {
			gaps[i-s] = uint32(int64(docs[i]) - prev - 1)
			ws[i-s] = tfs[i] - 1
			prev = int64(docs[i])
		}
		_, gs := packWidth(gaps[:e-s])
		_, ts := packWidth(ws[:e-s])
		size += gs + ts
	}
	return size
}

func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// blockExceptions marks a block's width byte when exceptions follow.
const blockExceptions = 0x80

// packWidth returns the width at which the values of a block take the fewest bytes,
// and that size: the width byte, the count of exceptions, the packed low bits and
// the exceptions.
func packWidth(vs []uint32) (w, size int) {
	var count [33]int
	top := 0
	for _, v := range vs {
		l := bits.Len32(v)
		count[l]++
		top = max(top, l)
	}
	best, bestSize := 0, -1
	for w := 0; w <= top; w++ {
		size, exc := 1+(len(vs)*w+7)/8, 0
		for l := w + 1; l <= top; l++ {
			exc += count[l]
			size += count[l] * (1 + (l-w+6)/7)
		}
		if exc > 0 {
			size++
		}
		if bestSize < 0 || size < bestSize {
			best, bestSize = w, size
		}
		if exc == 0 {
			break // wider only costs more
		}
	}
	return best, bestSize
}

// packBlock appends the values of a block (at most listBlock) in the packed form.
func packBlock(out []byte, vs []uint32) []byte {
	w, _ := packWidth(vs)
	exc := 0
	for _, v := range vs {
		if v>>w != 0 {
			exc++
		}
	}
	if exc == 0 {
		return pack(append(out, byte(w)), vs, w)
	}
	out = append(out, byte(w)|blockExceptions, byte(exc))
	var low [listBlock]uint32
	mask := uint32(1)<<w - 1
	for i, v := range vs {
		low[i] = v & mask
	}
	out = pack(out, low[:len(vs)], w)
	for i, v := range vs {
		if v>>w != 0 {
			out = append(out, byte(i))
			out = binary.AppendUvarint(out, uint64(v>>w))
		}
	}
	return out
}

// unpackBlock reads the values of a block into dst; it returns the bytes read, or -1
// when b is damaged.
func unpackBlock(dst []uint32, b []byte) int {
	if len(b) < 1 {
		return -1
	}
	w, read, exc := int(b[0]&^blockExceptions), 1, 0
	if w > 32 {
		return -1
	}
	if b[0]&blockExceptions != 0 {
		if len(b) < 2 {
			return -1
		}
		exc, read = int(b[1]), 2
	}
	k := unpack(dst, b[read:], w)
	if k < 0 {
		return -1
	}
	read += k
	for range exc {
		if read >= len(b) || int(b[read]) >= len(dst) {
			return -1
		}
		i := b[read]
		high, n := binary.Uvarint(b[read+1:])
		if n <= 0 || high > math.MaxUint32>>w {
			return -1
		}
		dst[i] |= uint32(high) << w
		read += 1 + n
	}
	return read
}

// pack appends vs at w bits each, least significant bits first.
func pack(out []byte, vs []uint32, w int) []byte {
	if w == 0 {
		return out
	}
	var acc uint64
	have := 0
	for _, v := range vs {
		acc |= uint64(v) << have
		have += w
		for have >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			have -= 8
		}
	}
	if have > 0 {
		out = append(out, byte(acc))
	}
	return out
}

// unpack reads n values of w bits from b into dst; it returns the bytes read, or -1
// when b is too short.
func unpack(dst []uint32, b []byte, w int) int {
	size := (len(dst)*w + 7) / 8
	if size > len(b) {
		return -1
	}
	if w == 0 {
		clear(dst)
		return 0
	}
	mask := uint64(1)<<w - 1
	for i := range dst {
		bit := i * w
		at := bit >> 3
		var word uint64
		if at+8 <= len(b) {
			word = binary.LittleEndian.Uint64(b[at:])
		} else {
			for k := len(b) - 1; k >= at; k-- {
				word = word<<8 | uint64(b[k])
			}
		}
		dst[i] = uint32(word >> (bit & 7) & mask)
	}
	return size
}

// decodeList decodes a persisted posting list; nil if it is damaged.
func decodeList(raw []byte, docs int) []posting {
	head, k := binary.Uvarint(raw)
	np := head >> 1
	if k <= 0 || np > uint64(len(raw)) && head&listPacked == 0 || np > uint64(docs) {
		return nil
	}
	list := make([]posting, np)
	if head&listPacked != 0 {
		if !unpackList(list, raw[k:]) {
			return nil
		}
	} else {
		d := &decoder{b: raw[k:]}
		doc := uint32(0)
		for i := range list {
			v := d.uvarint()
			doc += uint32(v >> 1)
			tf := float32(1)
			if v&1 == 0 {
				tf = float32(d.uvarint())
			}
			list[i] = posting{doc: doc, tf: tf}
		}
		if d.err != nil {
			return nil
		}
	}
	if np > 0 && int(list[np-1].doc) >= docs {
		return nil
	}
	return list
}

// unpackList decodes the packed blocks of a list into list; false if damaged.
func unpackList(list []posting, b []byte) bool {
	var gaps, tfs [listBlock]uint32
	doc := int64(-1)
	for s := 0; s < len(list); s += listBlock {
		m := min(listBlock, len(list)-s)
		k := unpackBlock(gaps[:m], b)
		if k < 0 {
			return false
		}
		b = b[k:]
		if k = unpackBlock(tfs[:m], b); k < 0 {
			return false
		}
		b = b[k:]
		for i := range m {
			doc += int64(gaps[i]) + 1
			list[s+i] = posting{doc: uint32(doc), tf: float32(tfs[i]) + 1}
		}
		if doc > 1<<32-1 {
			return false
		}
	}
	return true
}
