package vpath

import (
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	for s, want := range map[string]bool{
		"default": true, "Ada_Lovelace-2.0": true, "笔记": true, "Ünïcödé": true,
		strings.Repeat("a", 64): true, strings.Repeat("笔", 64): true,
		"": false, strings.Repeat("a", 65): false, "a/b": false, "a b": false, "a\\b": false,
		"a\x00b": false, "\xff": false, "a:b": false, "a=b": false,
	} {
		if got := ValidName(s); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPortable(t *testing.T) {
	for p, want := range map[Path]string{
		"people/Ada Lovelace.md":               "",
		"notes/a.b.md":                         "",
		"CON.md":                               "reserved on Windows",
		"folder/com7.txt":                      "reserved on Windows",
		"Lpt1/x.md":                            "reserved on Windows",
		" lead.md":                             "space",
		"trail /x.md":                          "space",
		"dot./x.md":                            "dot",
		"Note..md":                             "dot",
		Path(strings.Repeat("é", 127) + ".md"): "bytes long",
		Path(strings.Repeat("é", 126) + ".md"): "",
	} {
		err := p.Portable()
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%q.Portable() = %v, want %q", p, err, want)
		}
	}
}
