package utf8x

import "encoding/binary"

// Valid reports whether p is valid UTF-8, exactly as utf8.Valid does, and faster
// on text in other scripts, where the standard library decodes one character at a
// time. Between characters it takes ASCII sixteen bytes a step, and two three-byte
// characters (Chinese, Japanese, Korean) a step with one eight-byte load and a mask;
// the rest, mixed scripts (Latin, Cyrillic, Hindi and Chinese in one note) above all,
// goes through a deterministic automaton (utf8DFA), one table load and one shift a
// byte. FuzzValid holds it to utf8.Valid.
func Valid(p []byte) bool {
	state := uint64(sAccept)
	for len(p) > 0 {
		if state == sAccept {
			for len(p) >= 16 && (binary.LittleEndian.Uint64(p)|binary.LittleEndian.Uint64(p[8:]))&0x8080808080808080 == 0 {
				p = p[16:]
			}
			for len(p) >= 8 {
				// Bytes 0-5: lead 1110xxxx, two continuations 10xxxxxx, twice; leads E0
				// and ED, whose second byte has a narrower range, go to the automaton.
				w := binary.LittleEndian.Uint64(p)
				if w&0x0000C0C0F0C0C0F0 != 0x00008080E08080E0 {
					break
				}
				if l0, l1 := byte(w), byte(w>>24); l0 == 0xE0 || l0 == 0xED || l1 == 0xE0 || l1 == 0xED {
					break
				}
				p = p[6:]
			}
		}
		n := min(len(p), 16)
		for _, b := range p[:n] {
			state = utf8DFA[b] >> (state & 63)
		}
		p = p[n:]
		state &= 63
		if state == sReject {
			return false
		}
	}
	return state == sAccept
}

// The automaton's states are shifts: row utf8DFA[b] holds, at bit s, the state that
// byte b leads to from state s (six bits each). sAccept is between characters;
// sCont1-3 expect one to three continuation bytes (80-BF); the others expect a
// second byte in a narrower range: after E0 A0-BF (no overlong form), after ED
// 80-9F (no surrogate), after F0 90-BF, after F4 80-8F (nothing past U+10FFFF).
const (
	sAccept = 6 * iota
	sReject
	sCont1
	sCont2
	sCont3
	sE0
	sED
	sF0
	sF4
)

var utf8DFA = func() (t [256]uint64) {
	set := func(lo, hi int, from, to uint64) {
		for b := lo; b <= hi; b++ {
			t[b] = t[b]&^(63<<from) | to<<from
		}
	}
	states := []uint64{sAccept, sReject, sCont1, sCont2, sCont3, sE0, sED, sF0, sF4}
	for _, s := range states {
		set(0, 255, s, sReject) // everything not named below is an error
	}
	set(0x00, 0x7F, sAccept, sAccept)
	set(0xC2, 0xDF, sAccept, sCont1)
	set(0xE0, 0xE0, sAccept, sE0)
	set(0xE1, 0xEC, sAccept, sCont2)
	set(0xED, 0xED, sAccept, sED)
	set(0xEE, 0xEF, sAccept, sCont2)
	set(0xF0, 0xF0, sAccept, sF0)
	set(0xF1, 0xF3, sAccept, sCont3)
	set(0xF4, 0xF4, sAccept, sF4)
	set(0x80, 0xBF, sCont1, sAccept)
	set(0x80, 0xBF, sCont2, sCont1)
	set(0x80, 0xBF, sCont3, sCont2)
	set(0xA0, 0xBF, sE0, sCont1)
	set(0x80, 0x9F, sED, sCont1)
	set(0x90, 0xBF, sF0, sCont2)
	set(0x80, 0x8F, sF4, sCont2)
	return t
}()
