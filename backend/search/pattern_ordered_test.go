package search

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memotree/memotree/backend/library"
	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/bench/vaultgen"
)

// savedIndexVault generates a vault of folders and saves its search index, as a
// process that searched it before would have.
func savedIndexVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := vaultgen.Generate(dir, vaultgen.Options{Notes: 600, Seed: 3, Shape: vaultgen.ShapeFlow}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".memotree"), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ix, _, err := Open(t.Context(), v.State(), Options{SaveDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ix.mu.RLock()
	data := encode(ix.x, newGen())
	ix.mu.RUnlock()
	if err := v.WriteInternal(indexFile, data); err != nil {
		t.Fatal(err)
	}
	return dir
}

// oneShot opens the vault at dir as a one-shot command does (its notes not listed),
// with an engine of its own; indexed opens its search index first, so that a page
// goes by the index's candidates rather than by the ordered walk.
func oneShot(t *testing.T, dir string, indexed bool) (*Engine, *library.Library) {
	t.Helper()
	e, l := openEngine(t, dir, true)
	if indexed {
		if _, err := e.IndexOf(t.Context(), l); err != nil {
			t.Fatal(err)
		}
	}
	return e, l
}

func contentQuery(t *testing.T, pattern string, offset, limit int) ContentQuery {
	t.Helper()
	p, err := CompilePattern(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return ContentQuery{Pattern: p, Offset: offset, Limit: limit, MaxLines: 50}
}

// TestOrderedPageAnswersAsTheIndex checks that a one-shot process's page, which
// walks the folders in path order and stops once the page is known, answers every
// page as the search through the index's candidates does: the same notes and lines,
// the same count so far and the same next offset, for common, rare, absent and
// literal-free patterns, at several offsets. It reads less: a common pattern's first
// page stops among the first notes.
func TestOrderedPageAnswersAsTheIndex(t *testing.T) {
	dir := savedIndexVault(t)
	ordered, lo := oneShot(t, dir, false)
	indexed, li := oneShot(t, dir, true)
	for _, tc := range []struct {
		pattern       string
		offset, limit int
	}{
		{"/the/", 0, 50}, {"/the/", 7, 5}, {"/foo|bar/", 0, 10}, {"/foo|bar/", 30, 10},
		{"/\\bqu[a-z]*(ion|ness)\\b/", 0, 20}, {"*quiet*harbour*", 0, 50}, {"/[0-9]{4}-[0-9]{2}/", 3, 10},
		{"/zzqqxx never/", 0, 50}, {"/\\d{3}-\\d{4}-\\d{4}/", 0, 50},
	} {
		name := fmt.Sprintf("%s@%d+%d", tc.pattern, tc.offset, tc.limit)
		q := contentQuery(t, tc.pattern, tc.offset, tc.limit)
		if !ordered.orderedPages(lo, q) || indexed.orderedPages(li, q) {
			t.Fatalf("%s: the engines do not search as the test means them to", name)
		}
		got, err := ordered.Contents(t.Context(), lo, q, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		want, err := indexed.Contents(t.Context(), li, q, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		g, w := foundOf(got), foundOf(want)
		g.Searched, w.Searched = 0, 0 // what each had to consider differs by design
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s (-index +ordered):\n%s", name, d)
		}
		if tc.pattern == "/the/" && tc.offset == 0 && got.Searched >= 300 {
			t.Errorf("%s: the ordered page considered %d of 600 notes, not stopping at its page", name, got.Searched)
		}
	}
}

// TestOrderedPageTrustsOnlyAnUnchangedNote checks what the ordered page takes from
// the persisted index, which it asks for once its first batch has not filled the
// page: a note changed since it was indexed (another size or time) is read, whatever
// its filter says; a note that is as it was indexed and whose filter rules the
// pattern out is not read, which the test sees by changing a note's words behind the
// index's back (same size, time put back).
func TestOrderedPageTrustsOnlyAnUnchangedNote(t *testing.T) {
	dir := savedIndexVault(t)
	// The last two notes in a folder, in path order: the first notes, and the folders
	// listed with them, are read before the index is asked for (a common pattern's
	// page is found there).
	var notes []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && strings.Contains(filepath.ToSlash(rel), "/") && !strings.HasPrefix(rel, ".") {
			notes = append(notes, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil || len(notes) < 2*orderedBatch {
		t.Fatalf("the generated vault has %d notes: %v", len(notes), err)
	}
	slices.Sort(notes)
	changed, hidden := filepath.FromSlash(notes[len(notes)-2]), filepath.FromSlash(notes[len(notes)-1])
	if err := os.WriteFile(changed, []byte("Rewritten: the zqxmarker word.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(hidden)
	if err != nil {
		t.Fatal(err)
	}
	same := []byte("zqxmarker ")
	for len(same) < int(st.Size()) {
		same = append(same, 'x')
	}
	if err := os.WriteFile(hidden, same[:st.Size()], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(hidden, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	e, l := oneShot(t, dir, false)
	q := contentQuery(t, "/zqxmarker/", 0, 50)
	page, err := e.Contents(t.Context(), l, q, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range page.Notes {
		got = append(got, n.FilePath)
	}
	rel := func(p string) string { r, _ := filepath.Rel(dir, p); return filepath.ToSlash(r) }
	if d := cmp.Diff([]string{rel(changed)}, got); d != "" {
		t.Errorf("notes found (-want +got):\n%s", d)
	}
}
