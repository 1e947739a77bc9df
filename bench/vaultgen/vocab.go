package vaultgen

import (
	"math"
	"strconv"
	"strings"
)

// The shapes the search index was not tuned on: a vocabulary that grows with the
// vault (names of people, places and projects, invented words), notes in many
// languages and scripts, and long notes with code. Every word of them is made from
// its rank in an open vocabulary, so a larger vault holds more distinct words, as a
// real one does (Heaps' law), where the other shapes draw from a few thousand.

// openVocab draws words of one script from an unbounded vocabulary: rank k has
// probability about 1/k (log-uniform ranks), and each rank is one word, built from
// syllables by a generator seeded with the rank.
type openVocab struct {
	syllables []string
	min, max  int    // syllables a word
	salt      uint64 // separates the vocabularies of two scripts
	ranks     int    // the words of the vocabulary (0: openRanks)
}

// openRanks is the size of an open vocabulary: names and invented words. A language's
// own words are fewer (langRanks), and those written in CJK characters fewer still
// (cjkRanks): drawn from a few thousand characters, they repeat their bigrams as
// Chinese, Japanese and Korean text does.
const (
	openRanks = 1 << 22
	langRanks = 1 << 20
	cjkRanks  = 1 << 16
)

// draw picks a word.
func (v *openVocab) draw(r *rng) string {
	n := v.ranks
	if n == 0 {
		n = openRanks
	}
	u := float64(r.next()>>11) / (1 << 53)
	k := uint64(math.Exp(u * math.Log(float64(n))))
	return v.word(k)
}

// word is the word of rank k.
func (v *openVocab) word(k uint64) string {
	g := rng{s: k*0x9E3779B97F4A7C15 ^ v.salt}
	n := v.min + g.intn(v.max-v.min+1)
	var b strings.Builder
	for range n {
		b.WriteString(v.syllables[g.intn(len(v.syllables))])
	}
	return b.String()
}

// nameVocab makes the names and invented words of the names and code shapes. Its
// syllables spell no "un", like those of vocab (see syllables).
var nameVocab = &openVocab{syllables: strings.Fields(`
ad al am ar as be bo bra ca cha cor da del do dor e el en er es fa fer fi ga gor ha hel
i il in ir is ja jo ka kel ko la le li lo lor ma mar me mi mo na nel ni no o ol or pa
per pi po qua ra re ri ro sa se si so ta te ti to tor va ve vi vo wa we xa ya yo za zo
`), min: 2, max: 4, salt: 0x51}

// namesLang is the prose of the names shape: English, with a name or an invented
// word (a person, a place, a project) one word in four, capitalised half the time.
var namesLang = lang{
	pick: func(r *rng) string {
		if r.intn(4) != 0 {
			return english[englishZipf.draw(r)]
		}
		w := nameVocab.draw(r)
		if r.chance(50) {
			return capitalize(w)
		}
		return w
	},
	sep: " ", stop: ".", overview: "Overview", refs: "References", dangling: "Unwritten ", upper: true,
}

// script is one language of the mixed shape.
type script struct {
	vocab     *openVocab
	sep, stop string
	overview  string
	refs      string
}

// scripts are the languages of the mixed shape: Latin letters with diacritics,
// Cyrillic, Greek, Arabic, Devanagari (with combining vowel signs), Thai (with
// combining marks), Japanese (kana and kanji, no spaces), Korean (Hangul syllables
// between spaces) and Chinese (no spaces).
var scripts = []script{
	{vocab: &openVocab{syllables: strings.Fields(`schä ber lö gün ße été çon ñor já łę ść ři žá ơ ễ dé fü mé ré tè vå øl ka lo mi ter`), min: 1, max: 4, salt: 1, ranks: langRanks}, sep: " ", stop: ".", overview: "Übersicht", refs: "Références"},
	{vocab: &openVocab{syllables: strings.Fields(`ка ло ми тер во са ри ден па зу мор ель щи жо быт ых ля ю ё ство`), min: 1, max: 4, salt: 2, ranks: langRanks}, sep: " ", stop: ".", overview: "Обзор", refs: "Ссылки"},
	{vocab: &openVocab{syllables: strings.Fields(`κα λο μι τερ βο σα ρι δεν πα ζυ μορ ελ θι αν ψη ώ ής ού`), min: 1, max: 4, salt: 3, ranks: langRanks}, sep: " ", stop: ".", overview: "Επισκόπηση", refs: "Αναφορές"},
	{vocab: &openVocab{syllables: strings.Fields(`كا لو مي تر وا سا ري دن با زو مر ال قي شه`), min: 1, max: 4, salt: 4, ranks: langRanks}, sep: " ", stop: ".", overview: "نظرة عامة", refs: "مراجع"},
	{vocab: &openVocab{syllables: strings.Fields(`का लो मि तर वो सा री देन पा ज़ु मोर एल क्ष ग्य ने हीं`), min: 1, max: 3, salt: 5, ranks: langRanks}, sep: " ", stop: "।", overview: "अवलोकन", refs: "संदर्भ"},
	{vocab: &openVocab{syllables: strings.Fields(`กา ลา มี เท วอ สา ริ เดน ปา ซู มอ เอล ที่ ของ ใน`), min: 2, max: 5, salt: 6, ranks: langRanks}, sep: " ", stop: " ", overview: "ภาพรวม", refs: "อ้างอิง"},
	{vocab: &openVocab{syllables: hanPool(0x3041, 0x3093, 1, "日本語文書記録会議資料設定機能画面表示"), min: 1, max: 3, salt: 7, ranks: cjkRanks}, sep: "", stop: "。", overview: "概要", refs: "参照"},
	{vocab: &openVocab{syllables: hanPool(0xAC00, 0xD7A3, 37, ""), min: 1, max: 3, salt: 8, ranks: cjkRanks}, sep: " ", stop: ".", overview: "개요", refs: "참고"},
	{vocab: &openVocab{syllables: hanPool(0x4E00, 0x9FA5, 7, ""), min: 1, max: 3, salt: 9, ranks: cjkRanks}, sep: "", stop: "。", overview: "概述", refs: "参考"},
}

// hanPool returns the characters of the range [lo, hi] taken every step-th, and
// extra's characters: a script's syllables.
func hanPool(lo, hi rune, step int, extra string) []string {
	var out []string
	for c := lo; c <= hi; c += rune(step) {
		out = append(out, string(c))
		if len(out) >= 3000 {
			break
		}
	}
	for _, c := range extra {
		out = append(out, string(c))
	}
	return out
}

// mixedLang returns the prose of note i of the mixed shape: one script a note, with
// an English word (as notes mix in a product's name or a term) one word in ten.
func mixedLang(r *rng) lang {
	s := scripts[r.intn(len(scripts))]
	return lang{
		pick: func(r *rng) string {
			if r.intn(10) == 0 {
				return english[englishZipf.draw(r)]
			}
			return s.vocab.draw(r)
		},
		sep: s.sep, stop: s.stop, overview: s.overview, refs: s.refs, dangling: "Unwritten ",
	}
}

// codeBlock writes a fenced block of 5 to 40 lines of code: identifiers made of
// English words and names, numbers, hexadecimal constants, import paths and
// comments, as notes that keep snippets hold. It holds no "[[".
func (w *writer) codeBlock() {
	r := w.r
	w.str("```", codeLangs[r.intn(len(codeLangs))], "\n")
	for range r.between(5, 40) {
		w.str(strings.Repeat("\t", r.intn(3)))
		switch k := r.intn(6); k {
		case 0:
			w.str("// ")
			w.sentence(r.between(4, 10), false)
		case 1:
			w.str("import \"example.org/", nameVocab.draw(r), "/", w.ident(false), "\"")
		case 2:
			w.str("const ", strings.ToUpper(w.ident(true)), " = 0x", strconv.FormatUint(r.next()&0xFFFFFFFF, 16))
		case 3:
			w.str(w.ident(false), " := ", w.ident(false), "(", w.ident(true), ", ", strconv.Itoa(r.intn(100000)), ")")
		default:
			w.str("if err := ", w.ident(false), ".", capitalize(w.ident(false)), "(ctx, ", w.ident(true), "); err != nil {")
		}
		w.str("\n")
	}
	w.str("```\n\n")
}

// ident is an identifier of two or three words, in camel case or (snake) with
// underscores.
func (w *writer) ident(snake bool) string {
	var b strings.Builder
	for k := range w.r.between(2, 3) {
		x := english[englishZipf.draw(w.r)]
		if w.r.chance(40) {
			x = nameVocab.draw(w.r)
		}
		switch {
		case k == 0:
		case snake:
			b.WriteByte('_')
		default:
			x = capitalize(x)
		}
		b.WriteString(x)
	}
	return b.String()
}
