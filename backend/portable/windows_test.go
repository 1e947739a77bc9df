package portable

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWindowsLength(t *testing.T) {
	root := `C:\Users\Ada\Documents\Vault` // 28 characters
	tests := []struct {
		name string
		rel  string
		want int
	}{
		{"ASCII", "people/Ada.md", 28 + 1 + 13},
		{"a trailing separator on the root is not counted twice", "Ada.md", 28 + 1 + 6},
		{"Chinese: one unit per character", "笔记/索引.md", 28 + 1 + 8},
		{"an emoji outside the BMP counts two", "🌳.md", 28 + 1 + 5},
	}
	for _, tt := range tests {
		r := root
		if strings.HasPrefix(tt.name, "a trailing") {
			r += `\`
		}
		if got := WindowsLength(r, tt.rel); got != tt.want {
			t.Errorf("%s: WindowsLength(%q, %q) = %d, want %d", tt.name, r, tt.rel, got, tt.want)
		}
	}
}

func TestTooLong(t *testing.T) {
	root := `C:\Users\Ada\Documents\Vault`              // 28 + 1 separator
	fits := strings.Repeat("a", MaxPath-1-29-3) + ".md" // 259 in all
	if TooLong(root, fits) {
		t.Errorf("a path of %d units is too long, want it to fit", WindowsLength(root, fits))
	}
	over := "b" + fits // 260: MAX_PATH, no room for the NUL
	if !TooLong(root, over) {
		t.Errorf("a path of %d units fits, want too long", WindowsLength(root, over))
	}
	// 130 emoji are 260 units though 130 characters.
	if emoji := strings.Repeat("🌳", 130); !TooLong("C:", emoji) {
		t.Errorf("%d units of emoji fit, want too long", WindowsLength("C:", emoji))
	}
}

func TestWindowsProblems(t *testing.T) {
	tests := []struct {
		rel  string
		want []string
	}{
		{"people/Ada Lovelace.md", nil},
		{"笔记/索引.md", nil},
		{"con.md", []string{`"con.md" is a device name Windows reserves (CON)`}},
		{"devices/NUL", []string{`"NUL" is a device name Windows reserves (NUL)`}},
		{"com1.txt.md", []string{`"com1.txt.md" is a device name Windows reserves (COM1)`}},
		{"Lpt².md", []string{`"Lpt².md" is a device name Windows reserves (LPT²)`}},
		{"console.md", nil},
		{"COM10.md", nil},
		{"Meeting: 2026-12-07.md", []string{`"Meeting: 2026-12-07.md" holds ":", which Windows refuses in a name`}},
		{"What?.md", []string{`"What?.md" holds "?", which Windows refuses in a name`}},
		{`a\b.md`, []string{`"a\\b.md" holds "\\", which Windows refuses in a name`}},
		{"drafts./x.md", []string{`"drafts." ends in a dot or a space, which Windows drops from a name`}},
		{"aux /<x>.md", []string{
			`"aux " is a device name Windows reserves (AUX)`,
			`"aux " ends in a dot or a space, which Windows drops from a name`,
			`"<x>.md" holds "<", which Windows refuses in a name`,
		}},
		{"tab\there.md", []string{`"tab\there.md" holds "\t", which Windows refuses in a name`}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, WindowsProblems(tt.rel)); diff != "" {
			t.Errorf("WindowsProblems(%q) (-want +got):\n%s", tt.rel, diff)
		}
	}
}
