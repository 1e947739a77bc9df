package note

import (
	"encoding/binary"
	"unicode/utf8"
)

// validUTF8 reports whether p is valid UTF-8, exactly as utf8.Valid does, about twice
// as fast on text written in three-byte characters (Chinese, Japanese, Korean), where
// the standard library decodes one character at a time: it takes two such characters
// a step with one eight-byte load and a mask. ASCII goes sixteen bytes a step; any
// other character is left to utf8.DecodeRune. Leads E0 and ED, whose second byte has a
// narrower range (no overlong forms, no surrogates), always take the slow path.
// FuzzValidUTF8 holds it to utf8.Valid.
func validUTF8(p []byte) bool {
	for len(p) > 0 {
		for len(p) >= 16 {
			if (binary.LittleEndian.Uint64(p)|binary.LittleEndian.Uint64(p[8:]))&0x8080808080808080 != 0 {
				break
			}
			p = p[16:]
		}
		for len(p) >= 8 {
			// Bytes 0-5: lead 1110xxxx, two continuations 10xxxxxx, twice.
			w := binary.LittleEndian.Uint64(p)
			if w&0x0000C0C0F0C0C0F0 != 0x00008080E08080E0 {
				break
			}
			if l0, l1 := byte(w), byte(w>>24); l0 == 0xE0 || l0 == 0xED || l1 == 0xE0 || l1 == 0xED {
				break
			}
			p = p[6:]
		}
		if len(p) == 0 {
			break
		}
		c := p[0]
		if c < utf8.RuneSelf {
			p = p[1:]
			continue
		}
		if c >= 0xE1 && c <= 0xEF && c != 0xED && len(p) >= 3 && p[1]&0xC0 == 0x80 && p[2]&0xC0 == 0x80 {
			p = p[3:]
			continue
		}
		r, size := utf8.DecodeRune(p)
		if r == utf8.RuneError && size == 1 {
			return false
		}
		p = p[size:]
	}
	return true
}
