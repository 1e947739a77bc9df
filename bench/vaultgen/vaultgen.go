// Package vaultgen writes deterministic synthetic Obsidian-style vaults for benchmarks
// and tests. The same Options always produce byte-identical files, and Generate returns
// the ground truth (links, dangling links, relations) an indexer should find.
package vaultgen

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// Options controls a generation. Zero fields take their defaults.
type Options struct {
	// Notes is the number of notes to write (required, > 0).
	Notes int
	// Seed selects the vault; the same seed and options give the same bytes.
	Seed int64
	// MinWords and MaxWords bound a body's length in words (defaults by shape: 300
	// and 3000 for the own shape).
	MinWords, MaxWords int
	// Shape is the kind of vault (default ShapeOwn).
	Shape Shape
	// Workers is the number of parallel writers (default GOMAXPROCS). It never
	// changes the output.
	Workers int
}

// Summary is the ground truth of a generated vault.
type Summary struct {
	Notes   int   `json:"notes"`
	Folders int   `json:"folders"`
	Bytes   int64 `json:"bytes"`
	Words   int64 `json:"words"`
	// Links counts every wikilink an indexer should find: body [[links]], ![[embeds]]
	// and front-matter relation targets. Fake links inside code are excluded.
	Links int `json:"links"`
	// BodyLinks counts body wikilinks and embeds; Embeds is the embed share of them.
	BodyLinks int `json:"body_links"`
	Embeds    int `json:"embeds"`
	// Relations counts front-matter relations (each one also counted in Links).
	Relations int `json:"relations"`
	// FrontMatterLinks counts the other links in front matter values (each one also
	// counted in Links): a "related" list, or relations written with "type" and
	// "to", which the index reads as links rather than relations.
	FrontMatterLinks int `json:"front_matter_links"`
	// Dangling counts links (body and relations) whose target note does not exist;
	// DanglingRelations is the relation share of them.
	Dangling          int `json:"dangling"`
	DanglingRelations int `json:"dangling_relations"`
	// MarkdownLinks counts local [text](path.md) links to existing notes; they are
	// not included in Links. ExternalLinks counts https links.
	MarkdownLinks int `json:"markdown_links"`
	ExternalLinks int `json:"external_links"`
	// FakeLinks counts "[[" sequences inside code blocks and code spans, which must
	// not be taken for links.
	FakeLinks int `json:"fake_links"`
	// CJKNotes counts notes whose body carries Chinese text.
	CJKNotes  int   `json:"cjk_notes"`
	ElapsedMS int64 `json:"elapsed_ms"`
}

func (s *Summary) add(o Summary) {
	s.Bytes += o.Bytes
	s.Words += o.Words
	s.Links += o.Links
	s.BodyLinks += o.BodyLinks
	s.Embeds += o.Embeds
	s.Relations += o.Relations
	s.FrontMatterLinks += o.FrontMatterLinks
	s.Dangling += o.Dangling
	s.DanglingRelations += o.DanglingRelations
	s.MarkdownLinks += o.MarkdownLinks
	s.ExternalLinks += o.ExternalLinks
	s.FakeLinks += o.FakeLinks
	s.CJKNotes += o.CJKNotes
}

// plan is the vault's layout, decided before any note is written.
type plan struct {
	folders []string // slash-separated, relative; "" is the root
	titles  []string // note basenames, unique
	folder  []int    // folder index of each note
}

// path returns note i's vault-relative path without ".md".
func (p *plan) path(i int) string {
	if f := p.folders[p.folder[i]]; f != "" {
		return f + "/" + p.titles[i]
	}
	return p.titles[i]
}

func makePlan(o Options) *plan {
	r := newRNG(o.Seed, math.MaxUint64)
	nf := max(1, int(math.Round(math.Sqrt(float64(o.Notes))/2)))
	top := max(1, int(math.Round(math.Sqrt(float64(nf)))))
	p := &plan{folders: []string{""}}
	depth := []int{0}
	used := map[string]bool{}
	word := func() string { return vocab[r.intn(len(vocab))] }
	sep, capital := " ", capitalize
	switch o.Shape {
	case ShapeChinese:
		word = func() string { return cjkWords[r.intn(len(cjkWords))] }
		sep, capital = "", func(s string) string { return s }
	case ShapeNames, ShapeCode:
		word = func() string { return nameVocab.draw(r) }
	case ShapeMixed:
		word = func() string { return scripts[r.intn(len(scripts))].vocab.draw(r) }
	}
	name := func(parent string) string {
		for {
			n := parent + capital(word())
			if !used[n] {
				used[n] = true
				return n
			}
		}
	}
	for i := range nf {
		if i < top {
			p.folders = append(p.folders, name(""))
			depth = append(depth, 1)
			continue
		}
		for {
			par := 1 + r.intn(len(p.folders)-1)
			if depth[par] < 3 {
				p.folders = append(p.folders, name(p.folders[par]+"/"))
				depth = append(depth, depth[par]+1)
				break
			}
		}
	}
	seen := make(map[string]bool, o.Notes)
	p.titles = make([]string, o.Notes)
	p.folder = make([]int, o.Notes)
	for i := range o.Notes {
		t := capital(word()) + sep + word()
		if seen[t] {
			t += " " + strconv.Itoa(i)
		}
		seen[t] = true
		p.titles[i] = t
		if r.chance(3) {
			p.folder[i] = 0
		} else {
			p.folder[i] = 1 + r.intn(len(p.folders)-1)
		}
	}
	return p
}

// Generate writes a vault of o.Notes notes into dir, which must not exist or be empty.
func Generate(dir string, o Options) (Summary, error) {
	start := time.Now()
	if o.Notes <= 0 {
		return Summary{}, errors.New("vaultgen: Notes must be > 0")
	}
	if err := checkShape(&o); err != nil {
		return Summary{}, err
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if err := emptyDir(dir); err != nil {
		return Summary{}, err
	}
	p := makePlan(o)
	for _, f := range p.folders[1:] {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(f)), 0o755); err != nil {
			return Summary{}, err
		}
	}
	var (
		mu    sync.Mutex
		total = Summary{Notes: o.Notes, Folders: len(p.folders) - 1}
		errs  []error
		wg    sync.WaitGroup
		next  = make(chan int, 256)
	)
	for range o.Workers {
		wg.Go(func() {
			w := &writer{p: p, o: o, lang: o.Shape.lang()}
			var local Summary
			var err error
			for i := range next {
				if err != nil {
					continue
				}
				local.add(w.note(i))
				err = os.WriteFile(filepath.Join(dir, filepath.FromSlash(p.path(i))+".md"), w.buf, 0o644)
			}
			mu.Lock()
			total.add(local)
			if err != nil {
				errs = append(errs, err)
			}
			mu.Unlock()
		})
	}
	for i := range o.Notes {
		next <- i
	}
	close(next)
	wg.Wait()
	total.ElapsedMS = time.Since(start).Milliseconds()
	return total, errors.Join(errs...)
}

func emptyDir(dir string) error {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		if err == nil {
			return fmt.Errorf("vaultgen: %s is not empty", dir)
		}
		return err
	}
	return nil
}
