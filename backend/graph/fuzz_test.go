package graph

import (
	"testing"

	"github.com/memotree/memotree/backend/vpath"
)

// FuzzResolve checks that resolving and looking up any text never panics and only
// ever answers with a file of the graph.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"Note", "../Note", "./a/../../b", "/", "//x", "a/./b/", "Ω.md", "..", "[[x|y]]", "\x00"} {
		f.Add("a/b/src.md", s, false)
	}
	g := build(f, []string{"Note.md", "a/Note.md", "a/b/src.md", "x/y/z.png", "Ω.md", "b"}, nil)
	f.Fuzz(func(t *testing.T, from, target string, markdown bool) {
		var p vpath.Path
		var ok bool
		if markdown {
			p, ok = g.ResolveMarkdown(vpath.Path(from), target)
		} else {
			p, ok = g.Resolve(vpath.Path(from), target)
		}
		if ok && !g.Has(p) && p != vpath.Path(from) {
			t.Errorf("Resolve(%q, %q) = %q, not a file of the graph", from, target, p)
		}
		if p, err := g.Lookup(target); err == nil && !g.Has(p) {
			t.Errorf("Lookup(%q) = %q, not a file of the graph", target, p)
		}
	})
}
