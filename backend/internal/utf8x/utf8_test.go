package utf8x

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// utf8Cases are texts on every path of Valid: ASCII runs, runs of three-byte
// characters of every lead (E0 and ED with their narrow second bytes), runs of two-byte
// characters (C0 and C1 are overlong leads), four-byte characters, and broken
// sequences at every position of an eight-byte step.
var utf8Cases = []string{
	"", "a", "plain ASCII text, longer than sixteen bytes",
	"知识图谱笔记", "知识图谱笔记知识图谱笔记 and ASCII", "ab知识cd图谱",
	"\xe0\xa0\x80\xe0\xa0\x80\xe0\xa0\x80", "\xe0\x80\x80知识", "知识\xe0\x9f\xbf",
	"\xed\x9f\xbf\xed\x9f\xbf\xed\x9f\xbf", "知识\xed\xa0\x80图谱", "\xef\xbf\xbf\xef\xbf\xbd知识",
	"知识\xe4\xb8", "知识\xe4", "知识图\xe4\x28\xb8谱", "知识图\xe4\xb8\x28谱",
	"é ü ñ 😀 𝄞", "知识😀图谱", "\xf4\x90\x80\x80", "\xc0\xaf", "知识\x80图谱", "\xff",
	strings.Repeat("知", 40) + "\xe4\xb8", strings.Repeat("a", 15) + "\xe4\xb8\xad" + strings.Repeat("知", 3),
	// Runs of two-byte characters (four a step), broken at every position of a step.
	"Привет мир, Ελληνικά, עברית, العربية", "ПриветПриветПривет", "ÀÉÎÕÜàéîõü",
	"Прив\xc0\xafетмир", "Прив\xc1\xbfетмир", "Приве\xd0тмир", "Привет\xd0", "При\xd0\x28вет",
	"Привет\x80мир", "Пр\xdf\xbfивет", "\xc2\x80\xc2\x80\xc2\x80\xc2\x80", "\xc2\x80\xc2\x80\xc2\x80\xc1\x80",
}

func TestValid(t *testing.T) {
	for _, s := range utf8Cases {
		for cut := range len(s) + 1 { // every prefix: a sequence cut at every byte
			b := []byte(s[:cut])
			if got, want := Valid(b), utf8.Valid(b); got != want {
				t.Errorf("Valid(%q) = %v, utf8.Valid says %v", b, got, want)
			}
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range utf8Cases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), utf8.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, utf8.Valid says %v", b, got, want)
		}
	})
}

// BenchmarkValidUTF8 compares Valid with utf8.Valid on Chinese and Russian prose
// with ASCII markup, on a line of six scripts, and on English prose.
func BenchmarkValid(b *testing.B) {
	texts := map[string][]byte{
		"chinese": []byte(strings.Repeat("知识图谱是一种用图模型来描述知识的方法，[[笔记]] 与 #标签/子标签 相连。\n", 2000)),
		"english": []byte(strings.Repeat("A knowledge graph links [[notes]] with #tags/sub and typed relations.\n", 2000)),
		"russian": []byte(strings.Repeat("Граф знаний связывает [[заметки]] с #метками/под и связями.\n", 2000)),
		"mixed":   []byte(strings.Repeat("Le café — граф знаний, γράφος, ज्ञान ग्राफ़, 知识图谱 [[ノート]] и العربية.\n", 2000)),
	}
	for name, text := range texts {
		for _, impl := range []struct {
			name string
			fn   func([]byte) bool
		}{{"utf8x.Valid", Valid}, {"utf8.Valid", utf8.Valid}} {
			b.Run(name+"/"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if !impl.fn(text) {
						b.Fatal("valid text refused")
					}
				}
			})
		}
	}
}
