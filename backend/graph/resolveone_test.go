package graph

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/vpath"
)

// TestResolveOneCandidate checks resolve's shortcut for a stem with one file (rule 3
// alone) against applying every rule in order (resolveRules), on random vaults and
// targets: bare names, partial and vault paths, relative and absolute forms, other
// extensions, other case, decomposed accents, from notes in any folder.
func TestResolveOneCandidate(t *testing.T) {
	folders := []string{"a", "A", "b", "sub", "Sub", "中文", "Café", "Cafe\u0301", "x y"}
	names := []string{"Note", "note", "NOTE", "image", "Image.png", "v1.2", "Café", "Cafe\u0301", "日记", "n.md"}
	exts := []string{".md", ".md", "", ".png", ".MD"}
	rnd := rand.New(rand.NewPCG(7, 21))
	pick := func(s []string) string { return s[rnd.IntN(len(s))] }
	randPath := func(depth int) string {
		var parts []string
		for range rnd.IntN(depth + 1) {
			parts = append(parts, pick(folders))
		}
		return strings.Join(append(parts, pick(names)+pick(exts)), "/")
	}
	checked := 0
	for range 300 {
		var paths []string
		seen := map[string]bool{}
		for range 1 + rnd.IntN(12) {
			p := randPath(3)
			if _, err := vpath.Parse(p); err == nil && !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
		g := build(t, paths, nil)
		r := resolver{g: g, buf: make([]byte, 0, 64)}
		for range 60 {
			target := randPath(2)
			switch rnd.IntN(6) {
			case 0:
				target = "/" + target
			case 1:
				target = "./" + target
			case 2:
				target = "../" + target
			case 3:
				target = pick(paths) // a file's own path, or a part of it
				if i := strings.IndexByte(target, '/'); i >= 0 && rnd.IntN(2) == 0 {
					target = target[i+1:]
				}
				if rnd.IntN(2) == 0 {
					target = strings.ToUpper(target)
				}
			}
			if rnd.IntN(8) == 0 {
				target = " " + target + " "
			}
			b, _ := r.stem(target)
			if b == nil || len(b.files) != 1 {
				continue
			}
			from := mustPath(t, strings.TrimPrefix(strings.Join([]string{pick([]string{"", "a", "A/b", "sub", "中文"}), "src.md"}, "/"), "/"))
			dir := from.Dir()
			for _, markdown := range []bool{false, true} {
				tt := strings.TrimSpace(target)
				abs := strings.HasPrefix(tt, "/")
				rel := strings.HasPrefix(tt, "./") || strings.HasPrefix(tt, "../")
				got := r.resolve(dir, fold(string(dir)), target, b, markdown)
				want := r.resolveRules(dir, fold(string(dir)), tt, abs, rel, b, markdown)
				if got != want {
					t.Fatalf("files %q, from %s, target %q (markdown %v): shortcut gives %v, the rules %v", paths, from, target, markdown, pathOf(got), pathOf(want))
				}
				if got != nil {
					checked++
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d resolved links were compared: the test no longer reaches the shortcut", checked)
	}
}

// pathOf returns f's path, or "none".
func pathOf(f *file) string {
	if f == nil {
		return "none"
	}
	return string(f.path)
}
