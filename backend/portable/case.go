package portable

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold returns the key under which Windows (NTFS) and macOS (APFS, HFS+) look a name
// up: its Unicode normal form C (macOS does not tell "é" precomposed from "é"
// decomposed), each rune mapped to one member of its simple case-folding orbit ("K",
// "k" and the Kelvin sign give one key). Two names with one key are one file there.
func Fold(name string) string {
	return strings.Map(foldRune, norm.NFC.String(name))
}

// foldRune maps r to the lower case of the smallest rune of its simple folding orbit.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return unicode.ToLower(least)
}

// SameName reports whether the paths a and b name one file on a system that ignores
// case: Windows and macOS by default.
func SameName(a, b string) bool {
	return a == b || Fold(a) == Fold(b)
}

// CaseOnly reports whether a rename of from to to changes only the case (or the
// Unicode normal form) of the name: such a rename must rename the file, where a check
// for an existing target would find the file itself on Windows and macOS.
func CaseOnly(from, to string) bool {
	return from != to && SameName(from, to)
}

// CaseClashes returns the groups of two or more paths that differ only in case, each
// group sorted and the groups ordered by their first path: files that are distinct on
// Linux and one file on Windows and macOS, where checking the vault out keeps only
// one of them. Paths are compared whole (a/B.md and A/b.md clash too: their folders
// are one folder there).
func CaseClashes(paths []string) [][]string {
	byKey := map[string][]string{}
	for _, p := range paths {
		k := Fold(p)
		if !slices.Contains(byKey[k], p) {
			byKey[k] = append(byKey[k], p)
		}
	}
	var out [][]string
	for _, group := range byKey {
		if len(group) > 1 {
			slices.Sort(group)
			out = append(out, group)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return cmp.Compare(a[0], b[0]) })
	return out
}
