package graph

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/vpath"
)

// Errors that Lookup wraps in a *LookupError; check them with errors.Is.
var (
	// ErrNotFound means no file has the name, as a path, partial path, basename or
	// alias.
	ErrNotFound = errors.New("no such entity")
	// ErrAmbiguous means several files have the name and none is preferred.
	ErrAmbiguous = errors.New("ambiguous entity name")
)

// maxNearest is how many near names a not-found error suggests.
const maxNearest = 5

// LookupError is the error Lookup returns.
type LookupError struct {
	Name string // the name as given
	Err  error  // ErrNotFound or ErrAmbiguous
	// Candidates lists, sorted, the files an ambiguous name matches.
	Candidates []vpath.Path
	// Nearest lists up to five entity names close to a name not found, closest
	// first.
	Nearest []string
}

// Error says what was looked up and what to do about it.
func (e *LookupError) Error() string {
	switch {
	case len(e.Candidates) > 0:
		names := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			names[i] = c.Name()
		}
		return fmt.Sprintf("%q: %v: matches %s; give the full path", e.Name, e.Err, strings.Join(names, ", "))
	case len(e.Nearest) > 0:
		return fmt.Sprintf("%q: %v; nearest: %s", e.Name, e.Err, strings.Join(e.Nearest, ", "))
	}
	return fmt.Sprintf("%q: %v", e.Name, e.Err)
}

// Unwrap returns ErrNotFound or ErrAmbiguous.
func (e *LookupError) Unwrap() error { return e.Err }

// cleanName strips what a tool caller may wrap a name in: spaces, "[[...]]", a
// "|display" or "#subpath", a leading "/", and backslashes used as separators.
func cleanName(name string) string {
	s := relationName(name)
	s = strings.ReplaceAll(s, `\`, "/")
	return strings.TrimLeft(s, "/")
}

// Lookup finds the file a tool means by name. It accepts, case-insensitively and in
// this order of precedence: a full vault path with or without ".md"; a basename or
// partial path ("Ada", "people/Ada") matching exactly one file; an alias declared
// by exactly one note. It never guesses: a name matching several files at the
// first step that matches at all gives a *LookupError wrapping ErrAmbiguous with
// the candidates, and a name matching nothing one wrapping ErrNotFound with the
// nearest names. (Obsidian's link resolution, by contrast, picks the shortest
// path; see Resolve.)
func (g *Graph) Lookup(name string) (vpath.Path, error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	q := cleanName(name)
	if q == "" {
		return "", &LookupError{Name: name, Err: ErrNotFound}
	}
	c := path.Clean(q)
	if !escapes(c) && targetStem(c) != "" {
		for _, step := range []func(string, string) []*file{g.exactMatches, g.suffixMatches} {
			for _, pr := range probeNames(c) {
				if p, done, err := pick(name, pr, step(fold(pr), targetStem(c))); done {
					return p, err
				}
			}
		}
	}
	switch r := g.aliases[fold(q)]; len(r) {
	case 0:
	case 1:
		return r[0].path, nil
	default:
		e := &LookupError{Name: name, Err: ErrAmbiguous}
		for _, x := range r {
			e.Candidates = append(e.Candidates, x.path)
		}
		return "", e
	}
	return "", &LookupError{Name: name, Err: ErrNotFound, Nearest: g.nearest(q)}
}

// probeNames returns the paths to try for the cleaned name c, with and without
// ".md", in the order links use.
func probeNames(c string) []string {
	first, second, two := variants(c)
	name := func(md bool) string {
		if md {
			return c + ".md"
		}
		return c
	}
	if !two {
		return []string{name(first)}
	}
	return []string{name(first), name(second)}
}

// pick returns the single match, or an ambiguity error; done is false when there
// is no match. raw is the probe in its original case, preferred among paths that
// differ only in case.
func pick(name, raw string, matches []*file) (p vpath.Path, done bool, err error) {
	switch len(matches) {
	case 0:
		return "", false, nil
	case 1:
		return matches[0].path, true, nil
	}
	e := &LookupError{Name: name, Err: ErrAmbiguous}
	for _, f := range matches {
		if string(f.path) == raw {
			return f.path, true, nil
		}
		e.Candidates = append(e.Candidates, f.path)
	}
	slices.Sort(e.Candidates)
	return "", true, e
}

func (g *Graph) exactMatches(key, stem string) []*file {
	b := g.byStem[stem]
	if b == nil {
		return nil
	}
	if b.byKey != nil {
		return b.byKey[key]
	}
	var out []*file
	for _, f := range b.files {
		if f.key == key {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, byPathOrder)
	return out
}

// SameName returns the files other than p whose path equals p's but for case or
// Unicode normalisation: on Linux they are distinct files, but macOS and Windows (and
// a vault synced to them) would take them for p. A new name that has such twins would
// clobber one there, so tools refuse it.
func (g *Graph) SameName(p vpath.Path) []vpath.Path {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []vpath.Path
	for _, f := range g.exactMatches(fold(string(p)), stemOf(string(p))) {
		if f.path != p {
			out = append(out, f.path)
		}
	}
	return out
}

// HasFolder reports whether a file lies under dir, spelled exactly so ("people",
// "people/past"); a binary search, unlike FolderSpellings.
func (g *Graph) HasFolder(dir string) bool {
	prefix := strings.Trim(dir, "/") + "/"
	if prefix == "/" {
		return true
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	i, _ := slices.BinarySearch(g.paths, vpath.Path(prefix))
	return i < len(g.paths) && strings.HasPrefix(string(g.paths[i]), prefix)
}

// FolderSpellings returns, sorted, the spellings of the existing folders whose path
// equals dir but for case or Unicode normalisation ("Notes" for "NOTES"); dir itself
// is among them when it exists as spelled. A folder exists when a file lies under it.
// It scans every path, so it is for writes, not for hot reads.
func (g *Graph) FolderSpellings(dir string) []string {
	key := fold(strings.Trim(dir, "/"))
	if key == "" {
		return nil
	}
	depth := strings.Count(key, "/") + 1
	g.mu.RLock()
	defer g.mu.RUnlock()
	seen := map[string]bool{}
	for _, f := range g.files {
		if len(f.key) <= len(key) || f.key[len(key)] != '/' || f.key[:len(key)] != key {
			continue
		}
		parts := strings.SplitN(string(f.path), "/", depth+1)
		seen[strings.Join(parts[:depth], "/")] = true
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func (g *Graph) suffixMatches(key, stem string) []*file {
	var out []*file
	b := g.byStem[stem]
	if b == nil {
		return nil
	}
	for _, f := range b.files {
		k := f.key
		if k == key || (len(k) > len(key) && k[len(k)-len(key)-1] == '/' && strings.HasSuffix(k, key)) {
			out = append(out, f)
		}
	}
	return out
}

// nearest returns up to maxNearest note names close to q: names containing q
// first, then by edit distance to the full name, the basename, a word of the
// basename or an alias.
func (g *Graph) nearest(q string) []string {
	fq := strings.TrimSuffix(fold(q), ".md")
	limit := max(2, utf8.RuneCountInString(fq)/2)
	type hit struct {
		name string
		d    int
	}
	var hits []hit
	consider := func(name, against string) {
		fa := fold(against)
		d := 0
		if !strings.Contains(fa, fq) {
			d = 1 + editDistance(fq, fa, limit)
		}
		if d <= limit {
			hits = append(hits, hit{name, d})
		}
	}
	for _, p := range g.paths {
		f := g.files[p]
		if f.note == nil {
			continue
		}
		name := p.Name()
		consider(name, name)
		base := name[strings.LastIndexByte(name, '/')+1:]
		consider(name, base)
		if words := strings.Fields(base); len(words) > 1 {
			for _, w := range words {
				consider(name, w)
			}
		}
		for _, a := range f.note.Aliases {
			consider(name, a)
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(len(a.name), len(b.name)), strings.Compare(a.name, b.name))
	})
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.name) {
			out = append(out, h.name)
			if len(out) == maxNearest {
				break
			}
		}
	}
	return out
}

// editDistance returns the Levenshtein distance between a and b in runes, or
// limit+1 when it exceeds limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
