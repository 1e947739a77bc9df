package graph

import (
	"fmt"
	"sync"
	"testing"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// TestConcurrentReadersAndWriters runs writers and readers at once; under -race
// it checks the locking contract of the package doc, including that returned
// slices are the caller's to modify.
func TestConcurrentReadersAndWriters(t *testing.T) {
	g := New()
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := range 300 {
				p := vpath.Path(fmt.Sprintf("d%d/n%d.md", w, i%20))
				g.SetNote(p, withLinks(wiki(fmt.Sprintf("n%d", (i+1)%20)), embed("img.png")))
				if i%3 == 0 {
					g.Remove(vpath.Path(fmt.Sprintf("d%d/n%d.md", w, (i+7)%20)))
				}
				if i%50 == 0 {
					g.SetFile("img.png")
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for i := range 300 {
				p := vpath.Path(fmt.Sprintf("d0/n%d.md", i%20))
				out := g.Outlinks(p)
				for j := range out {
					out[j].To = "mine"
				}
				back := g.Backlinks(p)
				if len(back) > 0 {
					back[0].From = "mine"
				}
				files := g.Files()
				if len(files) > 0 {
					files[0] = "mine"
				}
				_ = g.Edges()
				_ = g.Unresolved()
				_ = g.Neighbors(p, 2, nil)
				_ = g.Stats()
				_ = g.Tags()
				_, _ = g.Lookup(fmt.Sprintf("n%d", i%25))
				_, _ = g.Resolve(p, "n3")
				if n, ok := g.Note(p); ok {
					_ = len(n.Links)
				}
			}
		})
	}
	wg.Wait()
	// Returned copies were modified above; the graph must not have noticed.
	for _, p := range g.Files() {
		if p == "mine" {
			t.Fatalf("a caller's change to a returned slice reached the graph")
		}
	}
	fresh := New()
	notes := map[vpath.Path]*note.Note{}
	var files []vpath.Path
	for _, p := range g.Files() {
		if n, ok := g.Note(p); ok {
			notes[p] = n
		} else {
			files = append(files, p)
		}
	}
	fresh.Load(notes, files)
	if got, want := g.Stats(), fresh.Stats(); got != want {
		t.Errorf("after concurrent changes Stats = %+v, Load from the same state gives %+v", got, want)
	}
}
