package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/memotree/memotree/backend/vpath"
)

// BM25 parameters.
const (
	k1 = 1.2
	b  = 0.75
)

// prefixExpansion caps how many index terms one prefix term stands for.
const prefixExpansion = 128

// Request is one ranked query.
type Request struct {
	// Query is words, "quoted phrases", prefix terms (engine*) and excluded words
	// (-draft). A note matching more of the words ranks higher; a phrase must occur
	// as written.
	Query string
	// Limit is the most hits returned (default 20).
	Limit int
	// Types and Tags keep notes of one of these entity types / holding one of these
	// tags (a tag also matches its nested tags: "area" matches "area/work").
	Types []string
	Tags  []string
	// Within keeps only the notes it accepts (a scope); nil keeps every note.
	Within func(vpath.Path) bool
	// PreviewLength is the length of each snippet in bytes (default 160; 0 or less
	// than 0 after defaulting: no snippet when NoSnippet).
	PreviewLength int
	NoSnippet     bool
}

// Hit is one note found, best first.
type Hit struct {
	Path       vpath.Path `json:"path"`
	Title      string     `json:"title"`
	Score      float64    `json:"score"`
	EntityType string     `json:"entity_type,omitempty"`
	Tags       []string   `json:"tags,omitempty"`
	Aliases    []string   `json:"aliases,omitempty"`
	Snippet    *Snippet   `json:"snippet,omitempty"`
}

// clause is one element of a parsed query.
type clause struct {
	terms   []string // index terms (all required for a phrase or a CJK run)
	words   []string // the word sequence, for phrase checks and highlights
	raw     string   // the query text of an unquoted clause ("bench/misil")
	phrase  bool
	prefix  bool
	exclude bool
}

// parseQuery splits a query into clauses.
func parseQuery(q string) []clause {
	var out []clause
	for q = strings.TrimSpace(q); q != ""; q = strings.TrimSpace(q) {
		var c clause
		if q[0] == '-' && len(q) > 1 && !unicode.IsSpace(rune(q[1])) {
			c.exclude = true
			q = q[1:]
		}
		var raw string
		if q[0] == '"' {
			end := strings.IndexByte(q[1:], '"')
			if end < 0 {
				raw, q = q[1:], ""
			} else {
				raw, q = q[1:end+1], q[end+2:]
			}
			c.phrase = true
		} else {
			end := strings.IndexFunc(q, unicode.IsSpace)
			if end < 0 {
				end = len(q)
			}
			raw, q = q[:end], q[end:]
			if strings.HasSuffix(raw, "*") {
				c.prefix = true
				raw = strings.TrimRight(raw, "*")
			}
		}
		c.terms, c.words = queryTerms(raw)
		if !c.phrase {
			c.raw = strings.ToLower(raw)
		}
		if len(c.terms) == 0 {
			continue
		}
		if len(c.words) > 1 && !c.prefix {
			// "e-mail", "双向链接": the parts must be adjacent, like a phrase; CJK
			// bigrams already encode adjacency, so only Latin parts need a check.
			c.phrase = c.phrase || hasLatinPair(c.words)
		}
		if !c.phrase && !c.prefix && len(c.terms) > 3 && allCJK(c.words) {
			// A sentence written without spaces ("如何给笔记设置别名"): each bigram
			// counts on its own, as the words of a Latin sentence do.
			for _, t := range c.terms {
				var chars []string // a bigram or, between punctuation, one character
				for _, r := range t {
					chars = append(chars, string(r))
				}
				out = append(out, clause{terms: []string{t}, words: chars, exclude: c.exclude})
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

func allCJK(words []string) bool {
	for _, w := range words {
		if !isCJKWord(w) {
			return false
		}
	}
	return true
}

// hasLatinPair reports whether words holds two or more Latin words.
func hasLatinPair(words []string) bool {
	n := 0
	for _, w := range words {
		if !isCJKWord(w) {
			n++
		}
	}
	return n > 1
}

func isCJKWord(w string) bool {
	for _, r := range w {
		return isCJK(r)
	}
	return false
}

// Search answers a ranked query.
func (ix *Index) Search(ctx context.Context, r Request) ([]Hit, error) {
	if err := ix.Refresh(ctx); err != nil {
		return nil, err
	}
	if r.Limit <= 0 {
		r.Limit = 20
	}
	clauses := parseQuery(r.Query)
	ix.mu.RLock()
	ranked := ix.rank(clauses, r)
	hits := make([]Hit, 0, len(ranked))
	for _, s := range ranked {
		d := ix.x.info(s.doc)
		hits = append(hits, Hit{Path: d.path, Title: d.title, Score: round(s.score), EntityType: d.entityType, Tags: d.tags, Aliases: d.aliases})
	}
	ix.mu.RUnlock()
	return ix.finish(ctx, hits, clauses, r)
}

func round(f float64) float64 { return math.Round(f*1000) / 1000 }

// scored is a document and its score.
type scored struct {
	doc   uint32
	score float64
}

// rank scores every document against the clauses and returns the best candidates,
// more than r.Limit when phrases still need checking. The caller holds mu.
func (ix *Index) rank(clauses []clause, r Request) []scored {
	x := ix.x
	n := x.n()
	if x.live == 0 || len(clauses) == 0 {
		return nil
	}
	score := make([]float64, n)
	matched := make([]uint16, n) // clauses matched
	excluded := make([]bool, n)
	avg := x.total / float64(x.live)
	positive := 0
	idfs := make([]float64, len(clauses)) // a clause's weight: its terms' mean idf
	for ci, c := range clauses {
		if !c.exclude {
			positive++
		}
		hit := make([]uint16, n) // terms of this clause found, by document
		var touched []uint32
		for _, t := range c.terms {
			var ids []uint32
			if c.prefix && t == c.terms[len(c.terms)-1] {
				ids = x.withPrefix(t, prefixExpansion)
			} else if id, ok := x.termID(t); ok {
				ids = []uint32{id}
			}
			var seen map[uint32]bool // a document under several expansions counts once
			if len(ids) > 1 {
				seen = map[uint32]bool{}
			}
			for _, id := range ids {
				list := x.list(int(id))
				idf := math.Log(1 + (float64(x.live)-float64(len(list))+0.5)/(float64(len(list))+0.5))
				idfs[ci] += idf / float64(len(c.terms)*len(ids))
				for _, p := range list {
					if !x.alive(p.doc) {
						continue
					}
					if c.exclude {
						excluded[p.doc] = true
						continue
					}
					tf := float64(p.tf)
					score[p.doc] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(x.length(p.doc))/avg))
					if seen == nil || !seen[p.doc] {
						if seen != nil {
							seen[p.doc] = true
						}
						if hit[p.doc] == 0 {
							touched = append(touched, p.doc)
						}
						hit[p.doc]++
					}
				}
			}
		}
		if c.exclude {
			continue
		}
		all := c.phrase || len(c.terms) > 1 && isCJKWord(c.words[0])
		for _, doc := range touched {
			k := int(hit[doc])
			if all && k < len(c.terms) {
				score[doc] = math.Inf(-1) // a phrase or CJK run needs all its terms
				continue
			}
			matched[doc]++
		}
	}
	nameScore, nameHits := x.nameMatches(clauses, idfs)
	filtered := len(r.Types) > 0 || len(r.Tags) > 0 || r.Within != nil
	var out []scored
	for doc := range n {
		s := score[doc]
		if s <= 0 || math.IsInf(s, -1) || excluded[doc] || matched[doc] == 0 || !x.alive(uint32(doc)) {
			continue
		}
		if filtered {
			if d := x.info(uint32(doc)); !keep(&d, r) {
				continue
			}
		}
		// Coordination: a note holding more of the query's words ranks higher.
		coord := float64(matched[doc]) / float64(positive)
		bonus := 1.5 * nameScore[doc]
		if int(nameHits[doc]) == positive {
			bonus *= 2 // the name holds the whole query
		}
		out = append(out, scored{uint32(doc), (s + bonus) * coord * coord})
	}
	better := func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return x.path(a.doc) < x.path(b.doc)
	}
	limit := r.Limit
	if hasPhrase(clauses) {
		out = x.withPhrases(out, clauses)
		limit += 10 // the text check of finish may still refuse one
	}
	return topK(out, limit, better)
}

// nameMatches finds the clauses held by each document's title or aliases: the sum
// of their weights and their number, by document.
func (x *postings) nameMatches(clauses []clause, idfs []float64) ([]float64, []uint16) {
	n := x.n()
	score := make([]float64, n)
	hits := make([]uint16, n)
	count := make([]uint16, n)
	for ci, c := range clauses {
		if c.exclude {
			continue
		}
		var touched []uint32
		for i, t := range c.terms {
			var lists [][]uint32
			if c.prefix && i == len(c.terms)-1 {
				for _, name := range x.termsWithPrefix(t) {
					lists = append(lists, x.nameDocs(name))
				}
			} else {
				lists = [][]uint32{x.nameDocs(t)}
			}
			for _, l := range lists {
				for _, d := range l {
					if count[d] == uint16(i) { // each term once, in order
						count[d]++
						if i == 0 {
							touched = append(touched, d)
						}
					}
				}
			}
		}
		for _, d := range touched {
			if int(count[d]) == len(c.terms) && x.alive(d) {
				score[d] += idfs[ci]
				hits[d]++
			}
			count[d] = 0
		}
	}
	return score, hits
}

// phraseSpec is a phrase as term ids: want[i] must follow want[i-1]; the last word
// of a prefix phrase may be any of last.
type phraseSpec struct {
	want []uint32
	last map[uint32]bool
}

// withPhrases keeps the candidates whose word sequence (or title or an alias) holds
// every phrase of the query.
func (x *postings) withPhrases(cands []scored, clauses []clause) []scored {
	var specs []phraseSpec
	var phrases []clause
	for _, c := range clauses {
		if !c.phrase || c.exclude {
			continue
		}
		phrases = append(phrases, c)
		sp := phraseSpec{}
		missing := false
		for i, w := range c.words {
			if c.prefix && i == len(c.words)-1 {
				sp.last = map[uint32]bool{}
				for _, id := range x.withPrefix(w, prefixExpansion) {
					sp.last[id] = true
				}
				continue
			}
			id, ok := x.termID(w)
			if !ok {
				missing = true
			}
			sp.want = append(sp.want, id)
		}
		if missing {
			sp = phraseSpec{want: nil, last: map[uint32]bool{}} // matches no text
		}
		specs = append(specs, sp)
	}
	out := cands[:0]
	for _, c := range cands {
		ok := true
		for i, sp := range specs {
			if !seqHas(x.seq(c.doc), sp) && !x.nameHas(c.doc, phrases[i]) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// seqHas reports whether a word sequence holds the phrase: the ids of its words,
// consecutive, are found as bytes (with a vectorised search) at a word boundary.
func seqHas(seq []byte, sp phraseSpec) bool {
	if sp.last != nil && len(sp.last) == 0 || len(sp.want) == 0 && sp.last == nil {
		return false
	}
	var buf [64]byte // on the stack for a phrase of a few words
	pat := buf[:0]
	for _, id := range sp.want {
		pat = appendSeq(pat, id)
	}
	for from := 0; from < len(seq); {
		at := from
		if len(pat) > 0 {
			if at = seqFind(seq, pat, from); at < 0 {
				return false
			}
		}
		next := at + len(pat)
		if sp.last == nil {
			return true
		}
		if id, _, ok := seqNext(seq, next); ok && sp.last[id] {
			return true
		}
		_, from, _ = seqNext(seq, at) // the next word
	}
	return false
}

// nameHas reports whether a phrase occurs in document id's title or an alias.
func (x *postings) nameHas(id uint32, c clause) bool {
	for i, t := range c.terms {
		if !(c.prefix && i == len(c.terms)-1) && !x.hasName(id, t) {
			return false // a word of the phrase is not in the name at all
		}
	}
	d := x.info(id)
	for _, n := range append([]string{d.title}, d.aliases...) {
		ts := tokenize([]byte(n))
		found := len(findSpans(ts, []clause{c})[0]) > 0
		ts.release()
		if found {
			return true
		}
	}
	return false
}

// topK returns the k best of s, best first (s is reordered).
func topK(s []scored, k int, better func(a, b scored) bool) []scored {
	if len(s) > 4*k {
		// Keep a bounded heap of the best k (worst on top), then sort it.
		h := s[:0:0]
		worse := func(i, j int) bool { return better(h[j], h[i]) }
		down := func(i int) {
			for {
				l := 2*i + 1
				if l >= len(h) {
					return
				}
				m := l
				if r := l + 1; r < len(h) && worse(r, l) {
					m = r
				}
				if !worse(m, i) {
					return
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
		for _, c := range s {
			switch {
			case len(h) < k:
				h = append(h, c)
				for i := len(h) - 1; i > 0 && worse(i, (i-1)/2); i = (i - 1) / 2 {
					h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
				}
			case better(c, h[0]):
				h[0] = c
				down(0)
			}
		}
		s = h
	}
	slices.SortFunc(s, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return s[:min(k, len(s))]
}

func hasPhrase(cs []clause) bool {
	for _, c := range cs {
		if c.phrase && !c.exclude {
			return true
		}
	}
	return false
}

// keep applies a request's filters to a document.
func keep(d *docInfo, r Request) bool { return r.Admits(d.path, d.entityType, d.tags) }

// Admits reports whether a note of this path, entity type and tags passes the
// request's filters (Types, Tags, Within), as every hit of a search does; callers that
// add notes of their own to an answer (graph neighbours) filter them with it.
func (r Request) Admits(p vpath.Path, entityType string, tags []string) bool {
	if len(r.Types) > 0 && !slices.ContainsFunc(r.Types, func(t string) bool { return strings.EqualFold(t, entityType) }) {
		return false
	}
	if len(r.Tags) > 0 && !slices.ContainsFunc(r.Tags, func(want string) bool { return hasTag(tags, want) }) {
		return false
	}
	return r.Within == nil || r.Within(p)
}

// hasTag reports whether tags holds want or a tag nested under it, case-insensitively.
func hasTag(tags []string, want string) bool {
	want = strings.TrimPrefix(want, "#")
	for _, t := range tags {
		if strings.EqualFold(t, want) || len(t) > len(want) && t[len(want)] == '/' && strings.EqualFold(t[:len(want)], want) {
			return true
		}
	}
	return false
}
