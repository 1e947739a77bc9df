package vaultgen

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	wikiRe = regexp.MustCompile(`(!?)\[\[([^\]]+)\]\]`)
	codeRe = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
	mdRe   = regexp.MustCompile(`\]\(([^)]+\.md)\)`)
	extRe  = regexp.MustCompile(`\]\(https://[^)]+\)`)
	relRe  = regexp.MustCompile(`(?m)^    relation to: "\[\[`)
	fakeRe = regexp.MustCompile(`\[\[`)
	fmRe   = regexp.MustCompile(`(?s)\A---\n.*?\n---\n`)
)

// TestSummaryMatchesFiles recounts a 200-note vault of every shape with regular
// expressions, independently of the generator, and compares with its Summary.
func TestSummaryMatchesFiles(t *testing.T) {
	for _, shape := range Shapes {
		t.Run(string(shape), func(t *testing.T) {
			o := Options{Notes: 200, Seed: 7, Shape: shape}
			if shape == ShapeLong || shape == ShapeCode {
				o.Notes = 40
			}
			checkSummary(t, o)
		})
	}
}

// frontMatterStart is how each shape's notes begin.
var frontMatterStart = map[Shape]string{
	ShapeOwn: "---\nentity type: ", ShapeFlow: "---\ntype: ", ShapeCRLF: "---\nentity type: ",
	ShapeLong: "---\nentity type: ", ShapeChinese: "---\ntype: ", ShapeHub: "---\nentity type: ",
	ShapeNames: "---\ntype: ", ShapeMixed: "---\ntype: ", ShapeCode: "---\ntype: ",
}

func checkSummary(t *testing.T, o Options) {
	dir := t.TempDir()
	s, err := Generate(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{} // vault path without .md -> content
	var bytes int64
	folders := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel != "." {
				folders++
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		bytes += int64(len(b))
		text := string(b)
		if o.Shape == ShapeCRLF {
			if !strings.HasPrefix(text, "\ufeff---\r\n") || strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\n") {
				t.Errorf("%s: not CRLF with a byte order mark", rel)
			}
			text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
		}
		files[strings.TrimSuffix(filepath.ToSlash(rel), ".md")] = text
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]bool{}
	for p := range files {
		exists[p] = true
		exists[p[strings.LastIndex(p, "/")+1:]] = true
	}
	var got Summary
	got.Notes, got.Folders, got.Bytes = len(files), folders, bytes
	for p, text := range files {
		code := strings.Join(codeRe.FindAllString(text, -1), "\n")
		got.FakeLinks += len(fakeRe.FindAllString(code, -1))
		text = codeRe.ReplaceAllString(text, "")
		for _, m := range wikiRe.FindAllStringSubmatch(text, -1) {
			target := m[2]
			if i := strings.Index(target, "|"); i >= 0 {
				target = strings.TrimSuffix(target[:i], `\`)
			}
			if i := strings.Index(target, "#"); i >= 0 {
				target = target[:i]
			}
			got.Links++
			if m[1] == "!" {
				got.Embeds++
			}
			if !exists[target] {
				got.Dangling++
			}
		}
		got.Relations += len(relRe.FindAllString(text, -1))
		fm := fmRe.FindString(text)
		got.FrontMatterLinks += len(wikiRe.FindAllString(fm, -1)) - len(relRe.FindAllString(fm, -1))
		for _, m := range mdRe.FindAllStringSubmatch(text, -1) {
			got.MarkdownLinks++
			if target := strings.ReplaceAll(strings.TrimSuffix(m[1], ".md"), "%20", " "); !exists[target] {
				t.Errorf("%s: markdown link to missing %q", p, target)
			}
		}
		got.ExternalLinks += len(extRe.FindAllString(text, -1))
		if !strings.HasPrefix(text, frontMatterStart[o.Shape]) {
			t.Errorf("%s: no front matter", p)
		}
	}
	check := func(name string, got, want any) {
		if got != want {
			t.Errorf("%s: files have %v, summary says %v", name, got, want)
		}
	}
	check("notes", got.Notes, s.Notes)
	check("folders", got.Folders, s.Folders)
	check("bytes", got.Bytes, s.Bytes)
	check("links", got.Links, s.Links)
	check("front matter links", got.FrontMatterLinks, s.FrontMatterLinks)
	check("body links", got.Links-got.Relations-got.FrontMatterLinks, s.BodyLinks)
	check("embeds", got.Embeds, s.Embeds)
	check("relations", got.Relations, s.Relations)
	check("dangling", got.Dangling, s.Dangling)
	check("markdown links", got.MarkdownLinks, s.MarkdownLinks)
	check("external links", got.ExternalLinks, s.ExternalLinks)
	check("fake links", got.FakeLinks, s.FakeLinks)
	if s.Dangling == 0 || s.Dangling > s.Links/8 {
		t.Errorf("dangling = %d of %d links, want about 5%%", s.Dangling, s.Links)
	}
	if s.FakeLinks == 0 || s.Embeds == 0 || s.CJKNotes == 0 || s.MarkdownLinks == 0 {
		t.Errorf("summary lacks a feature: %+v", s)
	}
	switch o.Shape {
	case ShapeFlow:
		if s.FrontMatterLinks == 0 || s.Relations != 0 {
			t.Errorf("the flow shape has %d front matter links and %d relations", s.FrontMatterLinks, s.Relations)
		}
	case ShapeChinese:
		if s.CJKNotes != s.Notes {
			t.Errorf("%d of %d notes are Chinese", s.CJKNotes, s.Notes)
		}
	case ShapeHub:
		if s.BodyLinks < HubLinks {
			t.Errorf("the hub shape has %d body links", s.BodyLinks)
		}
	case ShapeLong:
		if perNote := s.Words / int64(s.Notes); perNote < 6000 {
			t.Errorf("the long shape has %d words a note", perNote)
		}
	}
}

// TestUntunedVocabularyGrows checks that the shapes with an open vocabulary hold
// more distinct words as they grow, as real vaults do, where the others draw from a
// fixed list.
func TestUntunedVocabularyGrows(t *testing.T) {
	distinct := func(shape Shape, notes int) int {
		dir := t.TempDir()
		if _, err := Generate(dir, Options{Notes: notes, Seed: 2, Shape: shape, MinWords: 300, MaxWords: 300}); err != nil {
			t.Fatal(err)
		}
		words := map[string]bool{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			for _, w := range strings.Fields(string(b)) {
				words[w] = true
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return len(words)
	}
	flowSmall, flowLarge := distinct(ShapeFlow, 50), distinct(ShapeFlow, 200)
	for _, shape := range Untuned {
		small, large := distinct(shape, 50), distinct(shape, 200)
		t.Logf("%s: %d distinct words in 50 notes, %d in 200 (flow: %d, %d)", shape, small, large, flowSmall, flowLarge)
		if large-small < 3*(flowLarge-flowSmall) {
			t.Errorf("%s: %d distinct words in 50 notes, %d in 200, against flow's %d and %d: the vocabulary does not grow", shape, small, large, flowSmall, flowLarge)
		}
	}
}

func hashDir(t *testing.T, dir string) [32]byte {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, n)
		h.Write([]byte(filepath.ToSlash(rel) + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	return [32]byte(h.Sum(nil))
}

// TestDeterministic checks that the same options give byte-identical vaults whatever
// the number of workers, and that another seed gives another vault.
func TestDeterministic(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	sa, err := Generate(a, Options{Notes: 300, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, Options{Notes: 300, Seed: 3, Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(c, Options{Notes: 300, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	sa.ElapsedMS, sb.ElapsedMS = 0, 0
	if sa != sb {
		t.Errorf("summaries differ:\n%+v\n%+v", sa, sb)
	}
	if hashDir(t, a) != hashDir(t, b) {
		t.Error("same options gave different bytes")
	}
	if hashDir(t, a) == hashDir(t, c) {
		t.Error("different seeds gave the same bytes")
	}
}

func TestSingleNote(t *testing.T) {
	s, err := Generate(t.TempDir(), Options{Notes: 1, Seed: 1, MinWords: 10, MaxWords: 20})
	if err != nil {
		t.Fatal(err)
	}
	// With no other note to link to, every link dangles.
	if s.Notes != 1 || s.Links == 0 || s.Dangling != s.Links {
		t.Errorf("summary %+v", s)
	}
	if _, err := Generate(t.TempDir(), Options{}); err == nil {
		t.Error("Generate accepted zero notes")
	}
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(dir, Options{Notes: 1}); err == nil {
		t.Error("Generate wrote into a non-empty directory")
	}
}

// BenchmarkGenerate measures generation of a 1,000-note vault.
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		s, err := Generate(dir, Options{Notes: 1000, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(s.Bytes)
	}
}
