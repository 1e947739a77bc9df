package note

import (
	"bytes"
	"strings"
	"testing"
)

// plainOKSlow is what plainOK computes, one rule at a time.
func plainOKSlow(s []byte, isKey bool) bool {
	if len(s) == 0 {
		return false
	}
	dash := !isKey && s[0] == '-' && len(s) > 1 && s[1] != ' '
	if !dash && strings.IndexByte("-?:,[]{}#&*!|>'\"%@` ", s[0]) >= 0 {
		return false
	}
	if last := s[len(s)-1]; last == ' ' || last == ':' {
		return false
	}
	if bytes.Contains(s, []byte(": ")) || bytes.Contains(s, []byte(" #")) {
		return false
	}
	if isKey && bytes.ContainsAny(s, "#[]{},\"'") {
		return false
	}
	for _, c := range s {
		if c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// TestPlainOK checks plainOK's one pass against the rules one at a time: every pair
// of byte values at every pair of positions in short scalars, keys and values.
func TestPlainOK(t *testing.T) {
	for _, fill := range []string{"ab", "a b", "中文"} {
		for n := 1; n <= 5; n++ {
			for i := range n {
				for j := i; j < n; j++ {
					for c := range 256 {
						for _, d := range []byte{' ', ':', '#', '-', '\'', 'x', 0x7f, '\t', 0xe4} {
							s := []byte(strings.Repeat(fill, n))[:n]
							s[i], s[j] = byte(c), d
							for _, key := range []bool{false, true} {
								if got, want := plainOK(s, key), plainOKSlow(s, key); got != want {
									t.Fatalf("plainOK(%q, %v) = %v, want %v", s, key, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// FuzzPlainOK compares plainOK with the rules one at a time on any input.
func FuzzPlainOK(f *testing.F) {
	for _, s := range []string{"a: b", "a #b", "a#b", "-3", "- a", "x:", "k[0]", "\"q\"", "tab\there"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		for _, key := range []bool{false, true} {
			if got, want := plainOK(s, key), plainOKSlow(s, key); got != want {
				t.Fatalf("plainOK(%q, %v) = %v, want %v", s, key, got, want)
			}
		}
	})
}
