package graph

import (
	"hash/maphash"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold returns the case-folded form of s used for every name comparison. Non-ASCII
// input is first put in Unicode normal form C, so "é" typed precomposed and "é"
// decomposed (as macOS file systems store it) are one name. Each rune is then mapped
// to the lower case of the smallest rune in its simple case-folding orbit, so two
// strings fold to the same key exactly when strings.EqualFold holds for their NFC
// forms rune by rune ("K", "k" and the Kelvin sign all give "k"; "Σ", "σ" and "ς"
// give "σ"). ASCII-only input takes a fast path and is returned without allocation
// when it is already lower case.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, n := utf8.DecodeRuneInString(s[i:]); ideograph(r) {
				i += n - 1
				continue
			}
			return strings.Map(foldRune, nfc(s))
		}
		if 'A' <= c && c <= 'Z' {
			if plain(s[i:]) {
				return strings.Map(foldRune, s)
			}
			return strings.Map(foldRune, nfc(s))
		}
	}
	return s
}

// plain reports whether s holds only ASCII and ideographs, which fold rune by rune
// without normalisation.
func plain(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !ideograph(r) {
			return false
		}
		i += n
	}
	return true
}

// ideograph reports whether r is a CJK unified ideograph (the basic block or
// extension A): a rune without case that no normalisation changes or composes with
// its neighbours, so that names in Chinese fold as fast as ASCII ones.
func ideograph(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF
}

// nfc returns s in Unicode normal form C; s is returned as is when it already is.
func nfc(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// foldRune maps r to its canonical folded form.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < m {
			m = f
		}
	}
	return unicode.ToLower(m)
}

// len16 returns the length of s in UTF-16 code units, which is what JavaScript's
// String.length (and so Obsidian's "shortest path") counts.
func len16(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// stemOf returns the index key of a file or link name: its last path element,
// folded, with one trailing ".md" removed. "Note", "Note.md" and "NOTE.MD" share
// the stem "note"; "image.png" keeps its extension.
func stemOf(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(fold(name), ".md")
}

// seed is the hash seed of this process, for hashKey.
var seed = maphash.MakeSeed()

// hashKey hashes a folded path.
func hashKey(key string) uint64 { return maphash.String(seed, key) }

// hashBytes is hashKey for a key in a byte slice.
func hashBytes(key []byte) uint64 { return maphash.Bytes(seed, key) }
