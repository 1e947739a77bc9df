package note

import (
	"math/rand/v2"
	"testing"
)

// skipPlainSlow is what skipPlain computes, a byte at a time.
func skipPlainSlow(src []byte, p, end int) int {
	for ; p < end; p++ {
		if special[src[p]] {
			return p
		}
	}
	return end
}

// TestSkipPlain checks the eight-byte skip against the byte loop: every byte value at
// every position of a word and of the tail, between plain ASCII, UTF-8 (Chinese, and
// bytes just beside the special ranges), and on random bytes.
func TestSkipPlain(t *testing.T) {
	fills := [][]byte{
		[]byte("plain words, sentences. 0123456789 ABC xyz!"),
		[]byte("中文的笔记里有很多字"),
		{'"', '&', ';', '=', 'Z', '^', '_', 'a', '{', 0x7f, 0x80, 0xa3, 0xdb, 0xe0, 0xff, 0x00},
	}
	for _, fill := range fills {
		for n := 0; n <= 19; n++ {
			for at := 0; at < n; at++ {
				for c := range 256 {
					src := make([]byte, n)
					for i := range src {
						src[i] = fill[i%len(fill)]
					}
					src[at] = byte(c)
					for from := 0; from <= n; from++ {
						if got, want := skipPlain(src, from, n), skipPlainSlow(src, from, n); got != want {
							t.Fatalf("skipPlain(%q, %d, %d) = %d, want %d", src, from, n, got, want)
						}
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		src := make([]byte, r.IntN(64))
		for i := range src {
			src[i] = byte(r.IntN(256))
		}
		from := r.IntN(len(src) + 1)
		end := from + r.IntN(len(src)-from+1)
		if got, want := skipPlain(src, from, end), skipPlainSlow(src, from, end); got != want {
			t.Fatalf("skipPlain(%q, %d, %d) = %d, want %d", src, from, end, got, want)
		}
	}
}

// FuzzSkipPlain compares the eight-byte skip with the byte loop on any input.
func FuzzSkipPlain(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), 0)
	}
	f.Fuzz(func(t *testing.T, src []byte, from int) {
		if from < 0 || from > len(src) {
			from = 0
		}
		if got, want := skipPlain(src, from, len(src)), skipPlainSlow(src, from, len(src)); got != want {
			t.Fatalf("skipPlain(%q, %d) = %d, want %d", src, from, got, want)
		}
	})
}
