package search

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Snippet is an excerpt of a note around its best matches.
type Snippet struct {
	// Text is the excerpt, line breaks turned into spaces.
	Text string `json:"text"`
	// Rendered is Text with every match between ** and **.
	Rendered string `json:"rendered"`
	// Highlights are the byte spans of the matches in Text, [start, end).
	Highlights [][2]int `json:"highlights,omitempty"`
	// Matches are the byte spans of the matches in the file (at most maxSpans).
	Matches [][2]int `json:"matches,omitempty"`
	// Line is the 1-based line where Text starts.
	Line int `json:"line"`
}

const (
	defaultPreview = 160
	maxSpans       = 32
)

// token is one word of a text, with its span; its lower-cased form is
// tokens.buf[ws:we].
type token struct {
	ws, we     int32
	start, end int
	cjk        bool
}

// tokens is a tokenized text.
type tokens struct {
	list []token
	buf  []byte
}

func (ts *tokens) word(i int) []byte { t := ts.list[i]; return ts.buf[t.ws:t.we] }

var tokensPool = sync.Pool{New: func() any { return &tokens{} }}

// release returns ts to the pool; it must not be used afterwards.
func (ts *tokens) release() {
	if cap(ts.buf) <= 1<<20 {
		tokensPool.Put(ts)
	}
}

// tokenize splits data into words; release the result when done.
func tokenize(data []byte) *tokens {
	s := wordScanner{text: data}
	ts := tokensPool.Get().(*tokens)
	ts.list, ts.buf = ts.list[:0], ts.buf[:0]
	for {
		w, start, end, cjk, ok := s.next()
		if !ok {
			return ts
		}
		ws := int32(len(ts.buf))
		ts.buf = append(ts.buf, w...)
		ts.list = append(ts.list, token{ws, int32(len(ts.buf)), start, end, cjk})
	}
}

// findSpans returns where each clause's word sequence occurs in toks: spans by
// clause (excluded clauses get none).
func findSpans(toks *tokens, clauses []clause) [][][2]int {
	out := make([][][2]int, len(clauses))
	for ci, c := range clauses {
		if c.exclude || len(c.words) == 0 {
			continue
		}
		k := len(c.words)
		for i := 0; i+k <= len(toks.list); i++ {
			if seqAt(toks, i, c) {
				out[ci] = append(out[ci], [2]int{toks.list[i].start, toks.list[i+k-1].end})
				i += k - 1
			}
		}
	}
	return out
}

// seqAt reports whether clause c's words occur at toks[i:], CJK characters adjacent.
func seqAt(toks *tokens, i int, c clause) bool {
	for j, w := range c.words {
		t := toks.list[i+j]
		tw := toks.word(i + j)
		last := j == len(c.words)-1
		if c.prefix && last {
			if len(tw) < len(w) || string(tw[:len(w)]) != w {
				return false
			}
		} else if string(tw) != w {
			return false
		}
		if j > 0 && t.cjk && toks.list[i+j-1].cjk && toks.list[i+j-1].end != t.start {
			return false
		}
	}
	return true
}

// finish checks phrases against the text, builds snippets and cuts to the limit.
func (ix *Index) finish(ctx context.Context, hits []Hit, clauses []clause, r Request) ([]Hit, error) {
	phrases := hasPhrase(clauses)
	if !phrases && len(hits) > r.Limit {
		hits = hits[:r.Limit]
	}
	if r.NoSnippet && !phrases {
		return hits, nil
	}
	preview := r.PreviewLength
	if preview <= 0 {
		preview = defaultPreview
	}
	keepHit := make([]bool, len(hits))
	// Check in rounds of a little more than what is still needed, in parallel.
	found := 0
	for from := 0; from < len(hits) && found < r.Limit; {
		to := min(len(hits), from+max(r.Limit-found, 8)*2)
		var wg sync.WaitGroup
		for i := from; i < to; i++ {
			wg.Go(func() {
				data, err := ix.v.ReadFile(hits[i].Path)
				if err != nil {
					keepHit[i] = !phrases
					return
				}
				if phrases && !phrasesInName(hits[i], clauses) && !phrasesLikely(data, clauses) {
					return
				}
				spans := spansOf(data, clauses)
				if phrases && !phrasesFound(spans, clauses) && !phrasesInName(hits[i], clauses) {
					return
				}
				keepHit[i] = true
				if !r.NoSnippet {
					hits[i].Snippet = makeSnippet(data, spans, preview)
				}
			})
		}
		wg.Wait()
		for i := from; i < to; i++ {
			if keepHit[i] {
				found++
			}
		}
		from = to
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	out := hits[:0]
	for i := range hits {
		if keepHit[i] && len(out) < r.Limit {
			out = append(out, hits[i])
		}
	}
	return out, nil
}

// phrasesInName reports whether every phrase occurs in the note's title or an alias.
func phrasesInName(h Hit, clauses []clause) bool {
	names := append([]string{h.Title}, h.Aliases...)
	for _, c := range clauses {
		if !c.phrase || c.exclude {
			continue
		}
		if !slices.ContainsFunc(names, func(n string) bool {
			ts := tokenize([]byte(n))
			defer ts.release()
			return len(findSpans(ts, []clause{c})[0]) > 0
		}) {
			return false
		}
	}
	return true
}

// firstPart is how much of a note is searched for matches first; the rest is read
// only when some clause is not found there.
const firstPart = 8 << 10

// spansOf finds the clauses' matches in the first part of data, or in all of it when
// a clause is missing there.
func spansOf(data []byte, clauses []clause) [][][2]int {
	if len(data) > 2*firstPart {
		cut := firstPart
		if i := bytes.IndexByte(data[cut:], '\n'); i >= 0 {
			cut += i
			toks := tokenize(data[:cut])
			spans := findSpans(toks, clauses)
			toks.release()
			if allFound(spans, clauses) {
				return spans
			}
		}
	}
	toks := tokenize(data)
	defer toks.release()
	return findSpans(toks, clauses)
}

func allFound(spans [][][2]int, clauses []clause) bool {
	for ci, c := range clauses {
		if !c.exclude && len(spans[ci]) == 0 {
			return false
		}
	}
	return true
}

// phrasesLikely is a quick test that rules out notes lacking a Latin phrase: each
// phrase's first word must occur, case-folded, somewhere followed by the next word
// within a few bytes. Phrases with non-ASCII words are not ruled out here.
func phrasesLikely(data []byte, clauses []clause) bool {
	var lower []byte
	for _, c := range clauses {
		if !c.phrase || c.exclude || len(c.words) < 2 || !isASCII(strings.Join(c.words, "")) {
			continue
		}
		if lower == nil {
			lower = bytes.ToLower(data)
		}
		first, second := []byte(c.words[0]), []byte(c.words[1])
		ok := false
		for pos := 0; pos < len(lower) && !ok; {
			i := bytes.Index(lower[pos:], first)
			if i < 0 {
				break
			}
			after := pos + i + len(first)
			window := lower[after:min(len(lower), after+8+len(second))]
			ok = bytes.Contains(window, second)
			pos = after
		}
		if !ok {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func phrasesFound(spans [][][2]int, clauses []clause) bool {
	for ci, c := range clauses {
		if c.phrase && !c.exclude && len(spans[ci]) == 0 {
			return false
		}
	}
	return true
}

// makeSnippet picks the window of the body holding the most distinct clauses.
func makeSnippet(data []byte, spans [][][2]int, length int) *Snippet {
	body := bodyStart(data)
	type m struct {
		s, e, clause int
	}
	var all []m
	for ci, ss := range spans {
		for _, s := range ss {
			all = append(all, m{s[0], s[1], ci})
		}
	}
	sortMatches := func(a, b m) int { return a.s - b.s }
	slices.SortFunc(all, sortMatches)
	sn := &Snippet{}
	for _, a := range all {
		if len(sn.Matches) < maxSpans {
			sn.Matches = append(sn.Matches, [2]int{a.s, a.e})
		}
	}
	// Best window start: the body match after which the window holds most clauses.
	best, bestN := -1, 0
	for i, a := range all {
		if a.s < body {
			continue
		}
		seen := map[int]bool{}
		for j := i; j < len(all) && all[j].e <= a.s+length; j++ {
			seen[all[j].clause] = true
		}
		if len(seen) > bestN {
			best, bestN = i, len(seen)
		}
	}
	start := body
	if best >= 0 {
		start = all[best].s - length/4
		if start < body {
			start = body
		}
		// Start at a word boundary.
		for start > body && start < len(data) && !utf8.RuneStart(data[start]) {
			start--
		}
		if ls := lastBreak(data[start:all[best].s]); ls >= 0 {
			start += ls + 1 // start at the match's line
		}
	}
	for start < len(data) && (data[start] == '\n' || data[start] == '\r' || data[start] == ' ') {
		start++
	}
	end := min(len(data), start+length)
	for end < len(data) && end > start && !utf8.RuneStart(data[end]) {
		end--
	}
	text := []byte(string(data[start:end]))
	for i, c := range text {
		if c == '\n' || c == '\r' || c == '\t' {
			text[i] = ' '
		}
	}
	sn.Text = string(text)
	sn.Line = 1 + strings.Count(string(data[:start]), "\n")
	// Overlapping or touching matches (the bigrams of a Chinese word) are marked as one.
	var merged []m
	for _, a := range all {
		if k := len(merged) - 1; k >= 0 && a.s <= merged[k].e {
			merged[k].e = max(merged[k].e, a.e)
			continue
		}
		merged = append(merged, a)
	}
	var rb strings.Builder
	prev := 0
	for _, a := range merged {
		if a.s < start || a.e > end || a.s < prev+start {
			continue
		}
		hs, he := a.s-start, a.e-start
		sn.Highlights = append(sn.Highlights, [2]int{hs, he})
		rb.WriteString(sn.Text[prev:hs])
		rb.WriteString("**")
		rb.WriteString(sn.Text[hs:he])
		rb.WriteString("**")
		prev = he
	}
	rb.WriteString(sn.Text[prev:])
	sn.Rendered = rb.String()
	return sn
}

func lastBreak(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// bodyStart returns where a note's body begins: after a front matter block ("---"
// lines) at the top, or 0.
func bodyStart(data []byte) int {
	i := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		i = 3
	}
	if !bytes.HasPrefix(data[i:], []byte("---\n")) && !bytes.HasPrefix(data[i:], []byte("---\r\n")) {
		return 0
	}
	for pos := i + bytes.IndexByte(data[i:], '\n') + 1; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		line := data[pos:]
		if end >= 0 {
			line = data[pos : pos+end]
		}
		if l := string(bytes.TrimRight(line, " \t\r")); l == "---" || l == "..." {
			if end < 0 {
				return len(data)
			}
			return pos + end + 1
		}
		if end < 0 {
			break
		}
		pos += end + 1
	}
	return 0
}
