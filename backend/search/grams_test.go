package search

import (
	"regexp/syntax"
	"testing"
)

// TestGramsOfMultibyteText checks the filters' grams on text of multi-byte
// characters: a literal is found in a text holding it wherever it starts, a single
// CJK character still narrows a search, and characters in another order do not pass
// as the literal (the bigram grams tell them apart).
func TestGramsOfMultibyteText(t *testing.T) {
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"双向链接", "Obsidian 支持双向链接。", true},
		{"链", "反向链接", true},
		{"(?i)Über", "Ein ÜBERBLICK über alles", true},
		{"кошка", "Эта кошка спит", true},
		{"a双b", "xa双b", true},
		{"双向链接", "接链向双", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			tree, err := syntax.Parse(tt.pattern, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			q := RequiredTrigrams(tree)
			if q == nil {
				t.Fatalf("%s requires no gram", tt.pattern)
			}
			// A filter lets an absent gram through about a fifth of the time: the
			// text that must not pass lacks three (双向, 向链, 链接), not one.
			if got := mayMatch(bloomFor([]byte(tt.text)), q); got != tt.want {
				t.Errorf("mayMatch(%q, %q) = %v, want %v", tt.text, tt.pattern, got, tt.want)
			}
		})
	}
}
