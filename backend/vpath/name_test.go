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
