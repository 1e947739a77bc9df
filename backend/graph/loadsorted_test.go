package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memotree/memotree/backend/note"
	"github.com/memotree/memotree/backend/vpath"
)

// nestedVault returns n files in nested folders, sorted by path, with what the
// parallel parts of Load must keep straight: names shared across folders and
// differing in case only, buckets over scanMax, attachments, ".md" paths without a
// note, paths in ignored folders, and links and relations to all of them.
func nestedVault(n int) []Entry {
	r := rand.New(rand.NewPCG(3, 5))
	folder := func(i int) string {
		switch i % 4 {
		case 0:
			return ""
		case 1:
			return fmt.Sprintf("a%d/", i%7)
		case 2:
			return fmt.Sprintf("a%d/b%d/", i%7, i%5)
		}
		return fmt.Sprintf("a%d/b%d/c-%d/", i%7, i%5, i%3)
	}
	name := func(i int) string {
		switch {
		case i%9 == 0:
			return "Shared" // one stem in many folders: a bucket over scanMax
		case i%13 == 0:
			return fmt.Sprintf("Twin %d", i%4)
		case i%17 == 0:
			return fmt.Sprintf("twin %d", i%4) // differs in case only
		}
		return fmt.Sprintf("Note %d", i)
	}
	ignored := []string{".git/", ".obsidian/", ".trash/", ".memotree/"}
	seen := map[vpath.Path]bool{}
	var out []Entry
	for i := 0; len(out) < n; i++ {
		dir := folder(i)
		if i%50 == 0 {
			dir = ignored[i%len(ignored)] + dir
		}
		var e Entry
		switch {
		case i%11 == 0:
			e.Path = vpath.Path(fmt.Sprintf("%simg %d.png", dir, i%40))
		case i%23 == 0:
			e.Path = vpath.Path(dir + name(i) + ".md") // a note whose content is unknown
		default:
			e.Path = vpath.Path(dir + name(i) + ".md")
			e.Note = &note.Note{Aliases: []string{fmt.Sprintf("Alias %d", i%31)},
				Tags: []note.Tag{{Name: fmt.Sprintf("t/%d", i%6)}}}
			for range r.IntN(6) {
				j := r.IntN(3 * n / 2)
				targets := []string{name(j), folder(j) + name(j), "../" + name(j), "img " + fmt.Sprint(j%40) + ".png",
					"Shared", "twin 1", "Missing " + fmt.Sprint(j%100), "Alias 3", ""}
				e.Note.Links = append(e.Note.Links, note.Link{Kind: note.LinkKind(r.IntN(3)),
					Target: targets[r.IntN(len(targets))], Line: r.IntN(4)})
			}
			if r.IntN(3) == 0 {
				e.Note.Relations = append(e.Note.Relations, note.Relation{Type: "cites", To: "[[" + name(r.IntN(n)) + "]]", Line: 1})
			}
		}
		if !seen[e.Path] {
			seen[e.Path] = true
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(string(a.Path), string(b.Path)) })
	return out
}

// TestLoadSortedEqualsSerial loads a nested vault of 4,200 files with LoadSorted,
// sorted as a walk lists it with empty entries among them, and shuffled with paths
// listed twice, and with Load, on four goroutines so that every parallel part is split, and checks each
// graph against one built a note at a time (SetNote, SetFile: no parallel code).
func TestLoadSortedEqualsSerial(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	entries := nestedVault(4200)
	serial := New()
	for _, e := range entries {
		switch {
		case e.Note != nil:
			serial.SetNote(e.Path, e.Note)
		case e.Path.IsNote():
			serial.SetNote(e.Path, nil)
		default:
			serial.SetFile(e.Path)
		}
	}
	want := takeSnapshot(serial)
	if want.Stats.Files < 3500 || want.Stats.Files == len(entries) || want.EmptyBuckets != 0 || len(want.ByKey) == 0 {
		t.Fatalf("the vault misses what it must test: %d of %d files kept, stats %+v", want.Stats.Files, len(entries), want.Stats)
	}

	// Empty entries (files gone while the scan read them) do not break the order.
	var gaps []Entry
	for i, e := range entries {
		gaps = append(gaps, e)
		if i%1000 == 0 {
			gaps = append(gaps, Entry{})
		}
	}
	sorted := New()
	sorted.LoadSorted(len(gaps), func(i int) Entry { return gaps[i] })

	shuffled := slices.Clone(entries)
	rand.New(rand.NewPCG(9, 9)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for i := 0; i < len(entries); i += 97 { // listed twice: the first entry counts
		shuffled = append(shuffled, entries[i])
	}
	unsorted := New()
	unsorted.LoadSorted(len(shuffled), func(i int) Entry { return shuffled[i] })

	notes := map[vpath.Path]*note.Note{}
	var files []vpath.Path
	for _, e := range entries {
		if e.Note != nil {
			notes[e.Path] = e.Note
		} else {
			files = append(files, e.Path, e.Path)
		}
	}
	loaded := New()
	loaded.Load(notes, files)

	for name, g := range map[string]*Graph{"LoadSorted": sorted, "LoadSorted of a shuffled list": unsorted, "Load": loaded} {
		got := takeSnapshot(g)
		if reflect.DeepEqual(want, got) {
			continue
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(ref{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s differs from the graph built a note at a time (-want +got):\n%s", name, diff)
		}
	}
}

// TestSortedOnce checks the order test that lets LoadSorted skip its sort, on lists
// long enough to be split among goroutines, with empty entries at the splits.
func TestSortedOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	sorted := make([]Entry, 8192)
	for i := range sorted {
		if i%2048 != 0 && i%2048 != 1 { // empty entries where the parts begin
			sorted[i].Path = vpath.Path(fmt.Sprintf("f%05d.md", i))
		}
	}
	twice := slices.Clone(sorted)
	twice[4100].Path = twice[4099].Path
	across := slices.Clone(sorted) // out of order across a split, over empty entries
	across[4098].Path = "f04000.md"
	swapped := slices.Clone(sorted)
	swapped[8000], swapped[8001] = swapped[8001], swapped[8000]
	for _, c := range []struct {
		name string
		in   []Entry
		want bool
	}{
		{"sorted", sorted, true}, {"a path twice", twice, false}, {"out of order across parts", across, false},
		{"two swapped", swapped, false}, {"empty", nil, true},
	} {
		if got := sortedOnce(len(c.in), func(i int) Entry { return c.in[i] }); got != c.want {
			t.Errorf("%s: sortedOnce = %v, want %v", c.name, got, c.want)
		}
	}
}
