package search

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// A word is a run of letters and digits outside the CJK scripts, lower-cased, or a
// single character of a CJK script (Han, Hiragana, Katakana, Hangul). Everything else
// separates words. Indexing turns words into terms: a Latin word is one term; a run of
// adjacent CJK characters gives its character bigrams and every single character, so
// that a query of one character finds it and a longer one finds its bigrams.

// maxWordBytes caps one word; longer runs (base64, hashes) are cut.
const maxWordBytes = 64

// isCJK reports whether r belongs to a script written without spaces between words.
func isCJK(r rune) bool {
	switch {
	case r < 0x2E80:
		return false
	case r >= 0x3040 && r <= 0x30FF, // Hiragana, Katakana
		r >= 0x3400 && r <= 0x4DBF,   // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF,   // CJK unified ideographs
		r >= 0xAC00 && r <= 0xD7AF,   // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF,   // compatibility ideographs
		r >= 0x20000 && r <= 0x2FA1F: // extensions B–F
		return true
	}
	return false
}

// wordScanner yields the words of a text with their byte offsets. It reuses one buffer
// for the lower-cased word, so a word is valid only until the next call.
type wordScanner struct {
	text []byte
	pos  int
	buf  []byte
}

// next returns the next word, its byte span in the text, and whether it is one CJK
// character; ok is false at the end.
func (s *wordScanner) next() (w []byte, start, end int, cjk, ok bool) {
	t := s.text
	for s.pos < len(t) {
		c := t[s.pos]
		if c < utf8.RuneSelf {
			if isASCIIWord(c) {
				return s.ascii()
			}
			s.pos++
			continue
		}
		r, n := utf8.DecodeRune(t[s.pos:])
		if isCJK(r) {
			start = s.pos
			s.pos += n
			return t[start:s.pos], start, s.pos, true, true
		}
		if isWordRune(r) {
			return s.unicodeWord()
		}
		s.pos += n
	}
	return nil, 0, 0, false, false
}

func isASCIIWord(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// ascii scans a word that starts with an ASCII letter or digit; it continues into
// non-ASCII letters (café) through unicodeWord.
func (s *wordScanner) ascii() ([]byte, int, int, bool, bool) {
	t, start := s.text, s.pos
	s.buf = s.buf[:0]
	for s.pos < len(t) {
		c := t[s.pos]
		if c >= utf8.RuneSelf {
			return s.unicodeFrom(start)
		}
		if !isASCIIWord(c) {
			break
		}
		if len(s.buf) < maxWordBytes {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			s.buf = append(s.buf, c)
		}
		s.pos++
	}
	return s.buf, start, s.pos, false, true
}

func (s *wordScanner) unicodeWord() ([]byte, int, int, bool, bool) {
	s.buf = s.buf[:0]
	return s.unicodeFrom(s.pos)
}

// unicodeFrom continues a word at s.pos whose lower-cased prefix is in s.buf.
func (s *wordScanner) unicodeFrom(start int) ([]byte, int, int, bool, bool) {
	t := s.text
	for s.pos < len(t) {
		r, n := utf8.DecodeRune(t[s.pos:])
		if r < utf8.RuneSelf && !isASCIIWord(byte(r)) || r >= utf8.RuneSelf && (isCJK(r) || !isWordRune(r)) {
			break
		}
		if len(s.buf) < maxWordBytes {
			s.buf = utf8.AppendRune(s.buf, toLower(r))
		}
		s.pos += n
	}
	return s.buf, start, s.pos, false, true
}

// isWordRune reports whether r is part of a word: a letter, a digit or a nonspacing
// mark. Below runeTableEnd it is looked up in a table (the unicode package searches
// its ranges: a tenth of indexing text in other alphabets).
func isWordRune(r rune) bool {
	if uint32(r) < runeTableEnd {
		return runeTab().word[r>>6]&(1<<(r&63)) != 0
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// toLower is unicode.ToLower, by the table below runeTableEnd.
func toLower(r rune) rune {
	if uint32(r) < runeTableEnd {
		if l := runeTab().lower[r]; l != 0 {
			return rune(l)
		}
	}
	return unicode.ToLower(r)
}

// runeTableEnd is where the alphabets end and the CJK scripts begin (isCJK): Latin,
// Greek, Cyrillic, Hebrew, Arabic, the Indic scripts, Thai and the rest lie below.
const runeTableEnd = 0x2E80

// runeTable holds, below runeTableEnd, which runes are word runes (a bit each) and
// their lower case (0 where it lies past the table: Cherokee's is above it).
type runeTable struct {
	word  [runeTableEnd / 64]uint64
	lower [runeTableEnd]uint16
}

// runeTab is built on first use (a process that reads no text in another alphabet
// does not pay for it).
var runeTab = sync.OnceValue(func() *runeTable {
	t := &runeTable{}
	for r := range rune(runeTableEnd) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			t.word[r>>6] |= 1 << (r & 63)
		}
		if l := unicode.ToLower(r); l < runeTableEnd {
			t.lower[r] = uint16(l)
		}
	}
	return t
})

// termSink receives the terms of a text; the slice is valid only during the call.
type termSink func(term []byte)

// termsOf feeds the index terms of text to sink: every Latin word, and for CJK runs
// every character and every bigram of adjacent characters.
func termsOf(text []byte, sink termSink, scratch []byte) []byte {
	s := wordScanner{text: text}
	prevEnd, prevStart := -1, -1
	for {
		w, start, end, cjk, ok := s.next()
		if !ok {
			return scratch
		}
		if !cjk {
			sink(w)
			prevEnd = -1
			continue
		}
		sink(w)
		if start == prevEnd {
			scratch = append(append(scratch[:0], text[prevStart:prevEnd]...), w...)
			sink(scratch)
		}
		prevStart, prevEnd = start, end
	}
}

// queryTerms splits one query word (no spaces) into the terms a document must hold:
// Latin words as they are; a CJK run of one character as itself, of more as its
// bigrams. words are the word sequence (for phrase checks): each Latin word and each
// CJK character.
func queryTerms(text string) (terms, words []string) {
	s := wordScanner{text: []byte(text)}
	var run []string // current CJK run
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			terms = append(terms, run[0])
		default:
			for i := 1; i < len(run); i++ {
				terms = append(terms, run[i-1]+run[i])
			}
		}
		run = run[:0]
	}
	prevEnd := -1
	for {
		w, start, end, cjk, ok := s.next()
		if !ok {
			break
		}
		word := string(w)
		words = append(words, word)
		if !cjk {
			flush()
			terms = append(terms, word)
			prevEnd = -1
			continue
		}
		if start != prevEnd {
			flush()
		}
		run = append(run, word)
		prevEnd = end
	}
	flush()
	return terms, words
}
