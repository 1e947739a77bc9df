package graph

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// fixtureLink is one entry of a fixture vault's expected.json.
type fixtureLink struct {
	From   string `json:"from"`
	Target string `json:"target"`
	To     string `json:"to"`
}

// TestResolutionFixtures loads every vault under testdata/resolution, parsing its
// notes with note.Parse, and checks that every link resolves as expected.json
// says (and that expected.json lists every link).
func TestResolutionFixtures(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "resolution")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("read fixtures: %v", err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(root, e.Name())
			g, notes := loadFixture(t, dir)
			want := readExpected(t, dir)
			got := resolvedLinks(g, notes)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("links (-want +got):\n%s", diff)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no fixture vaults in %s", root)
	}
}

// loadFixture reads a fixture vault from disk into a graph.
func loadFixture(t *testing.T, dir string) (*Graph, map[vpath.Path]*note.Note) {
	t.Helper()
	notes := map[vpath.Path]*note.Note{}
	var files []vpath.Path
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "expected.json" {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		vp, err := vpath.Parse(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if !vp.IsNote() {
			files = append(files, vp)
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		notes[vp] = note.Parse(src)
		return nil
	})
	if err != nil {
		t.Fatalf("read fixture %s: %v", dir, err)
	}
	g := New()
	g.Load(notes, files)
	return g, notes
}

func readExpected(t *testing.T, dir string) []fixtureLink {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatalf("read expected: %v", err)
	}
	var exp struct {
		Links []fixtureLink `json:"links"`
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatalf("decode %s/expected.json: %v", dir, err)
	}
	sortLinks(exp.Links)
	return exp.Links
}

// resolvedLinks lists every link of every note with what it resolves to: edges
// from Outlinks, and self links (which are not edges) through Resolve.
func resolvedLinks(g *Graph, notes map[vpath.Path]*note.Note) []fixtureLink {
	var out []fixtureLink
	for p, n := range notes {
		byLink := map[*note.Link]Edge{}
		for _, e := range g.Outlinks(p) {
			byLink[e.Link] = e
		}
		for i := range n.Links {
			l := &n.Links[i]
			fl := fixtureLink{From: string(p), Target: l.Target()}
			if e, ok := byLink[l]; ok {
				fl.To = string(e.To)
			} else if to, ok := g.Resolve(p, l.Target()); ok && strings.TrimSpace(l.Target()) == "" {
				fl.To = string(to)
			}
			out = append(out, fl)
		}
	}
	sortLinks(out)
	return out
}

func sortLinks(ls []fixtureLink) {
	slices.SortFunc(ls, func(a, b fixtureLink) int {
		return strings.Compare(a.From+"\x00"+a.Target, b.From+"\x00"+b.Target)
	})
}
