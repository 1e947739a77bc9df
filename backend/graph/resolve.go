package graph

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/memotree/memotree/backend/vpath"
)

// How Obsidian resolves a link, and how this file mirrors it.
//
// Obsidian resolves every link through MetadataCache.getFirstLinkpathDest(linkpath,
// sourcePath), documented only as "get the best match for a linkpath"
// (obsidian-api obsidian.d.ts). Its behaviour was observed on Obsidian 1.13.7
// through the developer console by the maintainer of pvliesdonk/markdown-vault-mcp;
// the console output is quoted on https://github.com/pvliesdonk/markdown-vault-mcp/issues/1350
// and #1358, and summarised in that repository's
// docs/design/reference/obsidian-markdown.md ("The tie-break (#1350)") and pull
// request #1380. The rules, in order:
//
//  1. An exact vault path wins: with Note.md at the root, [[Note]] goes there even
//     from a folder that holds its own Note.md, and [[b/Note]] goes to b/Note.md
//     over a/b/Note.md beside the source.
//  2. Otherwise the file in the source note's own folder wins (zzzz/src.md ->
//     zzzz/Note.md over the shorter b/Note.md); an ancestor folder counts for
//     nothing. We implement this, as the brief asks, as "the path relative to the
//     source folder", which is the same thing for a bare name and also covers
//     [[./x]] and [[../x]] (observed: [[../y]] from a/x.md resolves to y.md).
//  3. Otherwise, among files whose path equals the target or ends with "/"+target
//     (a basename or partial-path match: [[b/Note]] finds a/b/Note.md), the
//     shortest path string wins, counted in UTF-16 units as JavaScript does:
//     a/b/Note.md (11) beats zzzz/Note.md (12), so not fewest folders, and
//     b/Note.md beats a/b/Note.md, so not file-tree order.
//
// Ties in rule 3 (equal length) are NOT stable in Obsidian: the same reference
// records bb/Tie.md winning over aa/Tie.md, and aa/Tie.md winning once zz/Tie.md
// was added ("not creation order, not alphabetical"). Nothing can reproduce that,
// so we break ties by the byte order of the path (aa/Tie.md), a deterministic rule
// of our own.
//
// Also observed there: matching is case-insensitive ([[log]] finds Log.md);
// aliases never resolve a link (they only feed suggestions; Lookup, for tools, does
// use them); [[#Heading]] is a link to the note itself; a Markdown link is
// percent-decoded and then looked up vault-wide like a wikilink
// ([y](My%20Note.md) from the root finds Sub/My Note.md). For Markdown links we
// try the path relative to the source folder first, then the vault path, then
// rule 3, because that is how Markdown links written in Obsidian's "relative path"
// format are meant and what other Markdown tools do.
//
// Extensions: a target without an extension names a note ("Note" -> "Note.md") and,
// failing that, a file of that exact name; a target with another extension
// ("image.png", "v1.2") names that file and, failing that, the note with ".md"
// appended; a target ending in ".md" names only that note. A target starting
// with "/" is a vault path (rule 1 only); one starting with "./" or "../" is
// relative (rule 2 only). Case folding is Unicode simple folding after normalisation
// to NFC (see fold), so a link typed with a precomposed "é" reaches a file whose
// name has it decomposed; Obsidian does the same on macOS, where the file system
// normalises.

// scanMax is the candidate count up to which a stem's list is scanned instead of
// looking a path up in bucket.byKey.
const scanMax = 16

// resolver resolves links without allocating in the common case, using a scratch
// buffer for folded keys. It is not safe for concurrent use: each goroutine needs
// its own.
type resolver struct {
	g   *Graph
	buf []byte
	// from is the note whose links were resolved last, dir its folder and fdir
	// that folded (see resolveLink).
	from *file
	dir  vpath.Path
	fdir string
}

// probe is one candidate path: dir + "/" + body (or body alone when dir is
// empty), with ".md" appended when md is set. fdir is dir folded.
type probe struct {
	dir, fdir, body string
	md              bool
}

// key writes the folded probe path into the scratch buffer and returns it.
func (r *resolver) key(p probe) []byte {
	b := append(r.buf[:0], p.fdir...)
	if p.dir != "" {
		b = append(b, '/')
	}
	b = appendFold(b, p.body)
	if p.md {
		b = append(b, ".md"...)
	}
	r.buf = b
	return b
}

// raw returns the probe path in its original case.
func (p probe) raw() string {
	s := p.body
	if p.dir != "" {
		s = p.dir + "/" + s
	}
	if p.md {
		s += ".md"
	}
	return s
}

// variants returns the order in which body is tried with and without ".md".
func variants(body string) (first, second bool, two bool) {
	dot := strings.LastIndexByte(body, '.')
	if dot < 0 || strings.IndexByte(body[dot:], '/') >= 0 {
		return true, false, true // no extension: "Note.md", then "Note"
	}
	if strings.EqualFold(body[dot:], ".md") {
		return false, false, false // ".md": only itself
	}
	return false, true, true // another extension: "image.png", then "image.png.md"
}

// needsClean reports whether s has empty, "." or ".." elements, in one pass.
func needsClean(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '/' {
			continue
		}
		switch s[start:i] {
		case "", ".", "..":
			return true
		}
		start = i + 1
	}
	return false
}

// escapes reports whether a cleaned path leaves the vault.
func escapes(c string) bool { return c == ".." || strings.HasPrefix(c, "../") }

// findExact returns the file at probe p (any variant, in order), preferring the
// exact spelling among paths that differ only in case.
func (r *resolver) findExact(b *bucket, p probe) *file {
	first, second, two := variants(p.body)
	for i, md := range [2]bool{first, second} {
		if i == 1 && !two {
			break
		}
		p.md = md
		if f := r.findKey(b, p); f != nil {
			return f
		}
	}
	return nil
}

func (r *resolver) findKey(b *bucket, p probe) *file {
	key := r.key(p)
	var hits []*file
	if len(b.files) <= scanMax {
		h := hashBytes(key)
		for i, e := range b.ents {
			if e.hash == h && b.files[i].key == string(key) {
				hits = append(hits, b.files[i])
			}
		}
	} else {
		hits = b.byKey[string(key)]
	}
	switch len(hits) {
	case 0:
		return nil
	case 1:
		return hits[0]
	}
	raw := p.raw()
	best := hits[0]
	for _, f := range hits {
		if string(f.path) == raw {
			return f
		}
		if f.path < best.path {
			best = f
		}
	}
	return best
}

// findSuffix applies rule 3: the first file of b (sorted by UTF-16 length, then
// path) whose folded path is, or ends with "/" followed by, the probe.
func (r *resolver) findSuffix(b *bucket, body string) *file {
	first, second, two := variants(body)
	bare := strings.IndexByte(body, '/') < 0
	for i, md := range [2]bool{first, second} {
		if i == 1 && !two {
			break
		}
		if bare {
			// Every name in b is stem or stem+".md", so a bare name matches
			// exactly the files with the same extension.
			wantMD := md || !two // a ".md" target is tried as written only
			for j, e := range b.ents {
				if e.md == wantMD {
					return b.files[j]
				}
			}
			continue
		}
		key := r.key(probe{body: body, md: md})
		for _, f := range b.files {
			k := f.key
			if k == string(key) || (len(k) > len(key) && k[len(k)-len(key)-1] == '/' && k[len(k)-len(key):] == string(key)) {
				return f
			}
		}
	}
	return nil
}

// resolve returns the file target, written in a note in folder dir (folded:
// fdir), points to, or nil. list holds the files under the target's stem;
// markdown selects the Markdown-link order.
func (r *resolver) resolve(dir vpath.Path, fdir, target string, b *bucket, markdown bool) *file {
	if len(b.files) == 0 {
		return nil
	}
	t := strings.TrimSpace(target)
	abs := strings.HasPrefix(t, "/")
	explicitRel := strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")
	if len(b.files) == 1 && !abs && !explicitRel && !needsClean(t) {
		// One candidate, most stems' case: whichever rule finds it, it is the
		// answer, and rule 3 finds every file rules 1 and 2 would (a path that
		// equals the probe, or ends in "/" and the probe, matches rule 3), so rule
		// 3 alone decides, without building and hashing the other probes' keys.
		return r.findSuffix(b, t)
	}
	return r.resolveRules(dir, fdir, t, abs, explicitRel, b, markdown)
}

// resolveRules is resolve applying the rules in order, for the trimmed target t.
func (r *resolver) resolveRules(dir vpath.Path, fdir, t string, abs, explicitRel bool, b *bucket, markdown bool) *file {
	var exact, rel *probe
	if !explicitRel {
		c := strings.TrimLeft(t, "/")
		if needsClean(c) {
			c = path.Clean(c)
		}
		if !escapes(c) {
			exact = &probe{body: c}
		}
	}
	if !abs {
		switch {
		case needsClean(t):
			c := path.Clean(t)
			if dir != "" {
				c = path.Clean(string(dir) + "/" + t)
			}
			if !escapes(c) {
				rel = &probe{body: c}
			}
		case dir != "":
			rel = &probe{dir: string(dir), fdir: fdir, body: t}
		}
	}
	order := [2]*probe{exact, rel}
	if markdown {
		order = [2]*probe{rel, exact}
	}
	for _, p := range order {
		if p != nil {
			if f := r.findExact(b, *p); f != nil {
				return f
			}
		}
	}
	if exact != nil && !abs {
		return r.findSuffix(b, exact.body)
	}
	return nil
}

// appendFold appends fold(s) to b.
func appendFold(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, n := utf8.DecodeRuneInString(s[i:]); ideograph(r) {
				b = append(b, s[i:i+n]...) // no case, no composition: as is
				i += n - 1
				continue
			}
			// A combining mark composes with the letter before it: normalise the
			// whole string and fold it again from the start.
			b = b[:len(b)-i]
			for _, r := range nfc(s) {
				b = utf8.AppendRune(b, foldRune(r))
			}
			return b
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// lastElem returns the last element of a trimmed target, or "" for a target that
// can never name a file (empty, or ending in "/", "." or "..").
func lastElem(target string) string {
	t := strings.TrimSpace(target)
	last := t[strings.LastIndexByte(t, '/')+1:]
	if last == "." || last == ".." {
		return ""
	}
	return last
}

// targetStem returns the stem a link target is indexed under, or "".
func targetStem(target string) string {
	if last := lastElem(target); last != "" {
		return stemOf(last)
	}
	return ""
}

// stem returns the bucket of targetStem(target) when there is one, and whether
// target has a stem at all, without allocating.
func (r *resolver) stem(target string) (*bucket, bool) {
	b := appendStem(r.buf[:0], target)
	r.buf = b
	if len(b) == 0 {
		return nil, false
	}
	return r.g.byStem[string(b)], true
}

// appendStem appends targetStem(target) to b.
func appendStem(b []byte, target string) []byte {
	last := lastElem(target)
	if last == "" {
		return b
	}
	start := len(b)
	b = appendFold(b, last)
	if len(b)-start >= 3 && string(b[len(b)-3:]) == ".md" {
		b = b[:len(b)-3]
	}
	return b
}

// resolveTarget resolves target written in the note at from. The caller holds
// the lock.
func (g *Graph) resolveTarget(from vpath.Path, target string, markdown bool) (vpath.Path, bool) {
	if strings.TrimSpace(target) == "" {
		_, exists := g.files[from]
		return from, exists
	}
	stem := targetStem(target)
	if stem == "" {
		return "", false
	}
	r := resolver{g: g, buf: make([]byte, 0, 128)}
	dir := from.Dir()
	b := g.byStem[stem]
	if b == nil {
		return "", false
	}
	if f := r.resolve(dir, fold(string(dir)), target, b, markdown); f != nil {
		return f.path, true
	}
	return "", false
}

// Resolve returns the file a wikilink target written in the note at from points
// to, by Obsidian's rules (described at the top of resolve.go). target is the link
// text without subpath or display text ("people/Ada", "image.png", "../Note.md").
// An empty target is a link to from itself. The note at from need not exist.
func (g *Graph) Resolve(from vpath.Path, target string) (vpath.Path, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.resolveTarget(from, target, false)
}

// ResolveMarkdown is Resolve for a Markdown link's URL-decoded destination: the
// path relative to from's folder is tried before the vault path.
func (g *Graph) ResolveMarkdown(from vpath.Path, target string) (vpath.Path, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.resolveTarget(from, target, true)
}
