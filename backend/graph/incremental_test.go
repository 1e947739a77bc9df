package graph

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// snapshot is everything observable about a graph, plus its internal indexes, so
// that two graphs holding the same files can be compared.
type snapshot struct {
	Files, Notes      []vpath.Path
	Out, Back         map[vpath.Path][]Edge
	Edges, Unresolved []Edge
	Stats             Stats
	Tags              map[string]int
	TagCount          int
	Neighbors         map[vpath.Path][]vpath.Path
	Lookup            map[string]string
	Deps, Backrefs    map[string]refs
	Aliases           map[string]refs
	ByStem, ByKey     map[string][]vpath.Path
	EmptyBuckets      int
}

func takeSnapshot(g *Graph) snapshot {
	s := snapshot{
		Files: g.Files(), Notes: g.Notes(), Out: map[vpath.Path][]Edge{}, Back: map[vpath.Path][]Edge{},
		Edges: g.Edges(), Unresolved: g.Unresolved(), Stats: g.Stats(), Tags: g.Tags(), TagCount: g.TagCount(),
		Neighbors: map[vpath.Path][]vpath.Path{}, Lookup: map[string]string{},
		Deps: map[string]refs{}, Backrefs: map[string]refs{}, Aliases: g.aliases,
		ByStem: map[string][]vpath.Path{}, ByKey: map[string][]vpath.Path{},
	}
	if len(s.Files) == 0 {
		s.Files = nil
	}
	if len(s.Notes) == 0 {
		s.Notes = nil
	}
	for _, p := range s.Files {
		s.Out[p] = g.Outlinks(p)
		s.Back[p] = g.Backlinks(p)
		s.Neighbors[p] = g.Neighbors(p, 2, nil)
	}
	for _, name := range propTargets {
		p, err := g.Lookup(name)
		s.Lookup[name] = fmt.Sprint(p, err)
	}
	for p, f := range g.files {
		if len(f.back) > 0 {
			s.Backrefs[string(p)] = f.back
		}
	}
	for k, b := range g.byStem {
		if len(b.files) > 0 {
			s.ByStem[k] = pathsOf(b.files)
		}
		if len(b.deps) > 0 {
			s.Deps[k] = b.deps
		}
		if len(b.files) == 0 && len(b.deps) == 0 {
			s.EmptyBuckets++
		}
	}
	for _, b := range g.byStem {
		for k, v := range b.byKey {
			s.ByKey[k] = pathsOf(v)
		}
	}
	return s
}

func pathsOf(fs []*file) []vpath.Path {
	out := make([]vpath.Path, len(fs))
	for i, f := range fs {
		out[i] = f.path
	}
	return out
}

var (
	propFolders = []string{"", "a/", "b/", "a/b/", "zz/", "中/"}
	propNames   = []string{"Note", "note", "Ada", "Tie", "x y", "笔记"}
	propFiles   = []string{"image.png", "doc.pdf", "Note"}
	propTargets = []string{"Note", "note", "a/Note", "b/Note", "./Note", "../Note", "../a/Note",
		"Note.md", "/Note", "Ada", "ADA", "Tie", "image.png", "doc.pdf", "笔记", "中/笔记", "x y",
		"Missing", "", "a/b/Tie", "Alias", "../../Ada"}
)

func randomNote(r *rand.Rand) *note.Note {
	n := &note.Note{}
	for range r.IntN(5) {
		l := lnk(note.LinkKind(r.IntN(3)), propTargets[r.IntN(len(propTargets))])
		l.Line = r.Int32N(3)
		l.InFrontMatter = r.IntN(4) == 0
		n.Links = append(n.Links, l)
	}
	for range r.IntN(3) {
		n.Relations = append(n.Relations, note.Relation{Type: []string{"knows", "", "cites"}[r.IntN(3)],
			To: propTargets[r.IntN(len(propTargets))], Line: r.IntN(3)})
	}
	if r.IntN(3) == 0 {
		n.Aliases = []string{[]string{"Alias", "Ada", "alias"}[r.IntN(3)]}
	}
	if r.IntN(2) == 0 {
		n.Tags = []note.Tag{{Name: []string{"p/q", "P", "x"}[r.IntN(3)]}}
	}
	return n
}

func randomPath(r *rand.Rand, folders []string) vpath.Path {
	dir := folders[r.IntN(len(folders))]
	if r.IntN(4) == 0 {
		return vpath.Path(dir + propFiles[r.IntN(len(propFiles))])
	}
	return vpath.Path(dir + propNames[r.IntN(len(propNames))] + ".md")
}

// TestIncrementalEqualsLoad applies a random sequence of changes (fixed seed) to
// two graphs, one started empty and one started with Load, and checks after every
// step that both equal a graph loaded from scratch from the same final state; so
// does a graph loaded with its reverse indexes deferred before each change. The
// second case uses enough folders for buckets to outgrow scanMax.
func TestIncrementalEqualsLoad(t *testing.T) {
	steps := 1000
	if testing.Short() {
		steps = 200
	}
	many := slices.Clone(propFolders)
	for i := range 40 {
		many = append(many, fmt.Sprintf("m%d/", i))
	}
	t.Run("few folders", func(t *testing.T) { checkIncremental(t, propFolders, 12, steps) })
	t.Run("many folders", func(t *testing.T) { checkIncremental(t, many, 120, steps/4) })
}

func checkIncremental(t *testing.T, folders []string, initial, steps int) {
	r := rand.New(rand.NewPCG(1, uint64(len(folders))))
	state := map[vpath.Path]*note.Note{} // nil for attachments
	for range initial {
		p := randomPath(r, folders)
		state[p] = nil
		if p.IsNote() {
			state[p] = randomNote(r)
		}
	}
	incremental, loaded := New(), New()
	for _, p := range slices.Sorted(maps.Keys(state)) {
		setPath(incremental, p, state[p])
	}
	load(loaded, state)
	for step := range steps {
		// A graph whose Load deferred its reverse indexes builds them for the change.
		deferred := New()
		deferred.DeferReverse()
		load(deferred, state)
		desc := applyRandom(r, folders, state, incremental, loaded, deferred)
		fresh := New()
		load(fresh, state)
		want := takeSnapshot(fresh)
		for name, g := range map[string]*Graph{"incremental": incremental, "loaded": loaded, "deferred, then changed": deferred} {
			got := takeSnapshot(g)
			if reflect.DeepEqual(want, got) { // fast path; cmp.Diff explains a difference
				continue
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(ref{}), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("step %d (%s), %s graph differs from Load (-want +got):\n%s", step, desc, name, diff)
			}
		}
	}
}

func setPath(g *Graph, p vpath.Path, n *note.Note) {
	if n == nil {
		g.SetFile(p)
		return
	}
	g.SetNote(p, n)
}

func load(g *Graph, state map[vpath.Path]*note.Note) {
	notes := map[vpath.Path]*note.Note{}
	var files []vpath.Path
	for p, n := range state {
		if n == nil {
			files = append(files, p)
		} else {
			notes[p] = n
		}
	}
	g.Load(notes, files)
}

// applyRandom makes one random change to state and to every graph.
func applyRandom(r *rand.Rand, folders []string, state map[vpath.Path]*note.Note, gs ...*Graph) string {
	existing := slices.Sorted(maps.Keys(state))
	switch op := r.IntN(10); {
	case op < 4 || len(existing) == 0: // add or edit
		p := randomPath(r, folders)
		var n *note.Note
		if p.IsNote() {
			n = randomNote(r)
		}
		state[p] = n
		for _, g := range gs {
			setPath(g, p, n)
		}
		return "set " + string(p)
	case op < 7: // remove
		p := existing[r.IntN(len(existing))]
		delete(state, p)
		for _, g := range gs {
			g.Remove(p)
		}
		return "remove " + string(p)
	default: // rename
		from := existing[r.IntN(len(existing))]
		to := randomPath(r, folders)
		if from.IsNote() != to.IsNote() || from == to {
			return "no-op"
		}
		n := state[from]
		delete(state, from)
		state[to] = n
		for _, g := range gs {
			g.Remove(from)
			setPath(g, to, n)
		}
		return fmt.Sprintf("rename %s -> %s", from, to)
	}
}

func TestCloneChangesApart(t *testing.T) {
	g := New()
	g.Load(map[vpath.Path]*note.Note{
		"a.md": note.Parse([]byte("[[b]] [[c]]")),
		"b.md": note.Parse([]byte("[[a]]")),
	}, []vpath.Path{"img.png"})
	c := g.Clone()
	if diff := cmp.Diff(g.Edges(), c.Edges()); diff != "" {
		t.Fatalf("the clone's edges differ (-original +clone):\n%s", diff)
	}
	if diff := cmp.Diff(g.Files(), c.Files()); diff != "" {
		t.Fatalf("the clone's files differ (-original +clone):\n%s", diff)
	}
	c.SetNote("c.md", note.Parse([]byte("[[a]]")))
	c.Remove("b.md")
	if g.Has("c.md") || !g.Has("b.md") {
		t.Errorf("a change to the clone reached the original: files %v", g.Files())
	}
	if got := len(g.Backlinks("a.md")); got != 1 {
		t.Errorf("the original's a.md has %d backlinks, want 1 (from b)", got)
	}
	if got := len(c.Backlinks("a.md")); got != 1 {
		t.Errorf("the clone's a.md has %d backlinks, want 1 (from c)", got)
	}
	if _, ok := c.Resolve("a.md", "c"); !ok {
		t.Errorf("the clone does not resolve [[c]] once c.md is in it")
	}
	if _, ok := g.Resolve("a.md", "c"); ok {
		t.Errorf("the original resolves [[c]], which only the clone has")
	}
}
