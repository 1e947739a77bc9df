package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/memotree/memotree/backend/internal/benchtest"
	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// synthVault generates nNotes notes in 500 folders with linksPer links each, and
// nNotes/10 attachments. One note in ten reuses a basename from another folder,
// so short links are often ambiguous; links mix bare names, folder paths, ../
// paths, embeds, Markdown links and unresolved names.
func synthVault(nNotes, linksPer int) (map[vpath.Path]*note.Note, []vpath.Path) {
	r := rand.New(rand.NewPCG(7, 7))
	name := func(i int) string {
		if i%10 == 0 {
			return fmt.Sprintf("Topic %d", i%97)
		}
		return fmt.Sprintf("Note %d", i)
	}
	pathOf := func(i int) vpath.Path { return vpath.Path(fmt.Sprintf("f%03d/%s.md", i%500, name(i))) }
	var files []vpath.Path
	for i := range nNotes / 10 {
		files = append(files, vpath.Path(fmt.Sprintf("f%03d/img %d.png", i%500, i)))
	}
	notes := make(map[vpath.Path]*note.Note, nNotes)
	for i := range nNotes {
		n := &note.Note{Links: make([]note.Link, 0, linksPer), Aliases: []string{fmt.Sprintf("alias %d", i)}}
		for range linksPer {
			j := r.IntN(nNotes)
			var l note.Link
			switch k := r.IntN(20); {
			case k < 12:
				l = lnk(note.WikiLink, name(j))
			case k < 14:
				l = lnk(note.WikiLink, fmt.Sprintf("f%03d/%s", j%500, name(j)))
			case k < 15:
				l = lnk(note.WikiLink, fmt.Sprintf("../f%03d/%s", j%500, name(j)))
			case k < 16:
				l = lnk(note.MarkdownLink, name(j)+".md")
			case k < 18:
				l = lnk(note.Embed, fmt.Sprintf("img %d.png", j%(nNotes/10)))
			default:
				l = lnk(note.WikiLink, fmt.Sprintf("Missing %d", j))
			}
			n.Links = append(n.Links, l)
		}
		notes[pathOf(i)] = n
	}
	return notes, files
}

// BenchmarkLoad50k loads 50,000 notes holding 500,000 links.
func BenchmarkLoad50k(b *testing.B) {
	notes, files := synthVault(50_000, 10)
	b.ReportAllocs()
	start := benchtest.CPU()
	for b.Loop() {
		New().Load(notes, files)
	}
	benchtest.ReportCPU(b, start)
}

// BenchmarkLoadSorted50k loads the same graph as BenchmarkLoad50k from a list sorted
// by path, as an index hands it over from its walk: no map of notes and no sort. It
// reports the CPU time beside the wall time, whose ratio shows how much of the load
// runs on every core.
func BenchmarkLoadSorted50k(b *testing.B) { benchLoadSorted(b, false) }

// BenchmarkLoadSorted50kDeferred is BenchmarkLoadSorted50k for a graph read once,
// which defers its reverse indexes (DeferReverse), as memotree index's graph does.
func BenchmarkLoadSorted50kDeferred(b *testing.B) { benchLoadSorted(b, true) }

// benchLoadSorted loads a synthetic vault of 50k notes, sorted by path, with its
// reverse indexes deferred or not, and reports the CPU time beside the wall time.
func benchLoadSorted(b *testing.B, deferred bool) {
	notes, files := synthVault(50_000, 10)
	in := make([]Entry, 0, len(notes)+len(files))
	for p, n := range notes {
		in = append(in, Entry{p, n})
	}
	for _, p := range files {
		in = append(in, Entry{Path: p})
	}
	slices.SortFunc(in, func(a, b Entry) int { return strings.Compare(string(a.Path), string(b.Path)) })
	b.ReportAllocs()
	start := benchtest.CPU()
	for b.Loop() {
		g := New()
		if deferred {
			g.DeferReverse()
		}
		g.LoadSorted(len(in), func(i int) Entry { return in[i] })
	}
	benchtest.ReportCPU(b, start)
}

// BenchmarkSetNote50k measures one change in a loaded 50,000-note graph: a new
// note whose basename is shared with others (so other notes' links re-resolve),
// then its removal. Each iteration is two changes.
func BenchmarkSetNote50k(b *testing.B) {
	notes, files := synthVault(50_000, 10)
	g := New()
	g.Load(notes, files)
	extra := &note.Note{Links: []note.Link{lnk(note.WikiLink, "Note 17"), lnk(note.WikiLink, "Topic 3")}}
	b.ReportAllocs()
	for b.Loop() {
		g.SetNote("aaa/Topic 3.md", extra)
		g.Remove("aaa/Topic 3.md")
	}
}

// BenchmarkEditNote50k measures replacing the content of an existing note.
func BenchmarkEditNote50k(b *testing.B) {
	notes, files := synthVault(50_000, 10)
	g := New()
	g.Load(notes, files)
	p := vpath.Path("f017/Note 17.md")
	n := notes[p]
	b.ReportAllocs()
	for b.Loop() {
		g.SetNote(p, n)
	}
}

// BenchmarkResolve50k measures one link resolution in a loaded graph.
func BenchmarkResolve50k(b *testing.B) {
	notes, files := synthVault(50_000, 10)
	g := New()
	g.Load(notes, files)
	for b.Loop() {
		g.Resolve("f001/Note 1.md", "Topic 3")
	}
}
