package portable

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSameName(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"people/Ada.md", "people/Ada.md", true},
		{"people/ada.md", "people/Ada.md", true},
		{"PEOPLE/ADA.MD", "people/ada.md", true},
		{"Straße.md", "STRASSE.md", false}, // full case folding (ß → ss) is not what the file systems do
		{"Café.md", "Cafe\u0301.md", true}, // precomposed and decomposed é: one file on macOS
		{"\u212a.md", "k.md", true},        // the Kelvin sign folds to k
		{"Σίσυφος.md", "σίσυφοσ.md", true}, // final sigma
		{"笔记.md", "笔记.md", true},
		{"Ada.md", "Ada .md", false},
		{"people/Ada.md", "people/Ada.md.md", false},
	}
	for _, tt := range tests {
		if got := SameName(tt.a, tt.b); got != tt.want {
			t.Errorf("SameName(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCaseOnly(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"ada.md", "Ada.md", true},
		{"notes/ada.md", "Notes/ADA.md", true},
		{"Ada.md", "Ada.md", false}, // no rename at all
		{"Ada.md", "Babbage.md", false},
	}
	for _, tt := range tests {
		if got := CaseOnly(tt.from, tt.to); got != tt.want {
			t.Errorf("CaseOnly(%q, %q) = %v, want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestCaseClashes(t *testing.T) {
	paths := []string{
		"people/Ada.md", "Welcome.md", "people/ada.md", "People/ADA.md",
		"notes/Zuse.md", "notes/zuse.md", "people/Ada.md", "Café.md", "Cafe\u0301.md", "Babbage.md",
	}
	want := [][]string{
		{"Cafe\u0301.md", "Café.md"},
		{"People/ADA.md", "people/Ada.md", "people/ada.md"},
		{"notes/Zuse.md", "notes/zuse.md"},
	}
	if diff := cmp.Diff(want, CaseClashes(paths)); diff != "" {
		t.Errorf("CaseClashes (-want +got):\n%s", diff)
	}
	if got := CaseClashes([]string{"a.md", "b.md"}); got != nil {
		t.Errorf("CaseClashes of distinct names = %v, want none", got)
	}
}
