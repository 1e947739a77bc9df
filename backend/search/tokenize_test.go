package search

import (
	"testing"
	"unicode"
)

// TestRuneTable: the table the word scanner reads below runeTableEnd says what the
// unicode package says, for every rune there and past it.
func TestRuneTable(t *testing.T) {
	for r := range rune(runeTableEnd + 0x1000) {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		if isWordRune(r) != word {
			t.Errorf("isWordRune(%U) = %v, want %v", r, !word, word)
		}
		if got, want := toLower(r), unicode.ToLower(r); got != want {
			t.Errorf("toLower(%U) = %U, want %U", r, got, want)
		}
	}
	if toLower('Ꭰ') != 'ꭰ' { // Cherokee: its lower case lies past the table
		t.Errorf("toLower(Ꭰ) = %U", toLower('Ꭰ'))
	}
}
