package graph

import (
	"path"
	"strings"
	"testing"
)

// TestNeedsClean checks needsClean against path.Clean on a path joined to a folder.
func TestNeedsClean(t *testing.T) {
	for _, s := range []string{"a", "a/b", "./a", "../a", "a/./b", "a/../b", "a//b", "a/", "a/.", "a/..", ".", "..", "/a", "//a", "a.b/c", "...", "a/.../b", ".a/b", "a/b.", "/"} {
		c := strings.TrimPrefix(s, "/")
		want := path.Clean("x/"+c) != "x/"+c
		if got := needsClean(c); got != want {
			t.Errorf("needsClean(%q) = %v, want %v", c, got, want)
		}
	}
}
