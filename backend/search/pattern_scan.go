package search

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/memotree/memotree/backend/vault"
	"github.com/memotree/memotree/backend/vpath"
)

// textCorpus is where the pattern searches read notes. The disk corpus reads the files
// on every search; a persisted index can take its place by narrowing the paths it
// reads to the candidates of a pattern.
type textCorpus interface {
	// scan reads the notes at paths and calls visit, possibly concurrently, with each
	// one's index in paths and its content, for the notes whose content keep accepts.
	// The content is valid only during the call: visit copies what it keeps. A note
	// that cannot be read is visited with nil content and reported in the returned
	// problems. A scan stops early when ctx is done.
	scan(ctx context.Context, paths []vpath.Path, keep func([]byte) bool, visit func(i int, data []byte)) ([]string, error)
}

// diskCorpus reads notes from the vault, in parallel, each folder's through one
// handle on it and into buffers reused from note to note (vault.ReadMany).
type diskCorpus struct{ v vault.View }

// scan implements textCorpus.
func (d diskCorpus) scan(ctx context.Context, paths []vpath.Path, keep func([]byte) bool, visit func(int, []byte)) ([]string, error) {
	var (
		mu       sync.Mutex
		problems []string
	)
	err := d.v.ReadMany(ctx, paths, vault.ReadManyOptions{Workers: min(max(runtime.GOMAXPROCS(0), 2), 16)}, func(i int, data []byte, err error) {
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			mu.Lock()
			problems = append(problems, fmt.Sprintf("%s could not be read: %v", paths[i], err))
			mu.Unlock()
			visit(i, nil) // counted as read: its name may still match
			return
		}
		if keep(data) {
			visit(i, data)
		}
	})
	if err == nil {
		err = ctx.Err()
	}
	return problems, err
}

// Limits of what one search answers with, so no result floods a context window.
const (
	maxLinesPerNote = 5    // matching lines shown per note
	maxCountPerNote = 1000 // matches counted per note
	maxContextBytes = 200  // bytes of one context line
)

// LineMatch is one matching line of a note.
type LineMatch struct {
	MatchedIn   string   `json:"matched_in,omitempty"`
	LineNumber  int      `json:"line_number"`
	MatchedText string   `json:"matched_text"`
	Context     []string `json:"context,omitempty"`
	// data[s:e] is the match, kept until render formats the text and context, so
	// that only the matches of the page shown cost any formatting.
	data []byte
	s, e int
}

// render fills the matched text and the context of a line match found by findLines.
func (m *LineMatch) render() {
	if m.data == nil {
		return
	}
	m.MatchedText = matchedText(m.data, m.s, m.e)
	m.Context = contextLines(m.data, m.s, m.LineNumber)
	m.data = nil
}

// renderAll renders every match of ms and returns ms.
func renderAll(ms []LineMatch) []LineMatch {
	for i := range ms {
		ms[i].render()
	}
	return ms
}

// NoteMatches is what a content search found in one note.
type NoteMatches struct {
	EntityName string      `json:"entity_name"`
	FilePath   string      `json:"file_path"`
	MatchCount int         `json:"match_count"`
	Matches    []LineMatch `json:"matches"`
}

// findLines finds the lines of data[from:to] that p matches, with one line of context
// on each side, labelled with where. It returns up to maxLinesPerNote lines and the
// number of matching lines (counted up to maxCountPerNote). A match is reported at the
// line where it starts.
func findLines(p *Pattern, data []byte, from, to int, where string) ([]LineMatch, int) {
	return findLinesUpTo(p, data, from, to, where, maxCountPerNote, nil)
}

// minScanLiteral is the shortest literal findLinesUpTo searches for rather than
// leave the whole text to RE2.
const minScanLiteral = 3

// scansByLiteral says whether findLinesUpTo finds p's lines in region by its literal:
// a byte search finds it, and the regexp runs on its lines only. A short one (":" of
// /[0-9]{2}:[0-9]{2}/) is on most lines of some notes (code), where RE2 reading the
// text once is faster, and rare in others, where the byte search is: it is counted
// first (a byte count is many times faster than either).
func (p *Pattern) scansByLiteral(region []byte) bool {
	switch {
	case len(p.lit) == 0:
		return false
	case len(p.lit) >= minScanLiteral || p.fast == nil:
		return true
	case p.fold:
		return false
	}
	return bytes.Count(region, p.lit) <= len(region)/sparseLiteralBytes
}

// sparseLiteralBytes: a short literal found at most once in that many bytes is
// searched for (scansByLiteral).
const sparseLiteralBytes = 512

// findLinesUpTo is findLines counting at most limit matching lines: a count of
// the notes with matches asks for one, and stops at a note's first.
func findLinesUpTo(p *Pattern, data []byte, from, to int, where string, limit int, vm *validMemo) ([]LineMatch, int) {
	if from >= to {
		return nil, 0
	}
	ml := matchedLines{limit: limit}
	ml.line, ml.pos = 1+bytes.Count(data[:from], nl), from
	if p.scansByLiteral(data[from:to]) && !(p.fold && hasFoldTrap(data[from:to])) {
		ml.byLiteral(p, data, from, to, where)
		return ml.out, ml.count
	}
	if p.scanLits != nil {
		ml.byLiterals(p, data, from, to, where)
		return ml.out, ml.count
	}
	var locs [][]int
	if p.fast != nil && vm.valid(data, from, to) {
		locs = p.fast.FindAllIndex(data[from:to], limit)
	} else {
		locs = p.re.FindAllIndex(data[from:to], limit)
	}
	for _, loc := range locs {
		ml.add(data, from+loc[0], from+loc[1], where)
	}
	return ml.out, ml.count
}

// matchedLines collects the matching lines of one region, in order.
type matchedLines struct {
	out             []LineMatch
	count, lastLine int
	limit           int // the most lines counted
	line, pos       int // the line number at offset pos
}

// byLiteral visits only the lines holding p's literal and runs the regexp on each:
// the literal is found with bytes.Index, far faster than the regexp over the file.
func (ml *matchedLines) byLiteral(p *Pattern, data []byte, from, to int, where string) {
	for pos := from; pos < to && ml.count < ml.limit; {
		var i int
		if p.fold {
			i = indexFoldASCII(data[pos:to], p.lit)
		} else {
			i = bytes.Index(data[pos:to], p.lit)
		}
		if i < 0 {
			return
		}
		s, e := LineBounds(data, pos+i)
		s, e = max(s, from), min(e, to)
		if loc := p.re.FindIndex(data[s:e]); loc != nil {
			ml.add(data, s+loc[0], s+loc[1], where)
		}
		next := bytes.IndexByte(data[pos+i:to], '\n')
		if next < 0 {
			return
		}
		pos += i + next + 1
	}
}

// byLiterals is byLiteral for a pattern of several alternatives, each holding one of
// p.scanLits: it visits the lines holding any of them, in order. Each literal is
// looked for only as far as the nearest one found (a count, which stops at its first
// line, never reads a note to its end for a literal it does not hold), and where it
// was found is remembered, so that a rare one is not looked for again on every line.
func (ml *matchedLines) byLiterals(p *Pattern, data []byte, from, to int, where string) {
	// Where each was found (-1: not at or after where it was searched), and where it
	// starts nowhere before: on the stack for a few literals, as this runs per note.
	var atBuf, searchedBuf [8]int
	at, searched := atBuf[:0], searchedBuf[:0]
	for range p.scanLits {
		at, searched = append(at, -1), append(searched, from)
	}
	for pos := from; pos < to && ml.count < ml.limit; {
		first := -1
		for k, lit := range p.scanLits {
			if at[k] < pos {
				start, limit := max(pos, searched[k]), to
				if first >= 0 {
					limit = min(to, first+len(lit))
				}
				at[k] = -1
				if start < limit {
					if i := bytes.Index(data[start:limit], lit); i >= 0 {
						at[k] = start + i
					} else {
						searched[k] = max(start, limit-len(lit)+1)
					}
				}
				if at[k] < 0 {
					continue
				}
			}
			if first < 0 || at[k] < first {
				first = at[k]
			}
		}
		if first < 0 {
			return
		}
		if p.litsOnly {
			k := slices.Index(at, first) // the earliest alternative starting there
			ml.add(data, first, first+len(p.scanLits[k]), where)
		} else {
			s, e := LineBounds(data, first)
			s, e = max(s, from), min(e, to)
			if loc := p.re.FindIndex(data[s:e]); loc != nil {
				ml.add(data, s+loc[0], s+loc[1], where)
			}
		}
		end := bytes.IndexByte(data[first:to], '\n')
		if end < 0 {
			return
		}
		pos = first + end + 1
	}
}

// add records the match data[s:e], once per line.
func (ml *matchedLines) add(data []byte, s, e int, where string) {
	ml.line += bytes.Count(data[ml.pos:s], nl)
	ml.pos = s
	if ml.line == ml.lastLine {
		return
	}
	ml.lastLine = ml.line
	ml.count++
	if len(ml.out) < maxLinesPerNote {
		ml.out = append(ml.out, LineMatch{MatchedIn: where, LineNumber: ml.line, data: data, s: s, e: e})
	}
}

// hasFoldTrap reports whether data holds a letter that folds to ASCII from outside it.
func hasFoldTrap(data []byte) bool {
	for _, t := range foldTraps {
		if bytes.Contains(data, t) {
			return true
		}
	}
	return false
}

var nl = []byte{'\n'}

// LineBounds returns the start and end (without the line break) of the line holding
// offset i of data.
func LineBounds(data []byte, i int) (int, int) {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += i
	}
	if end > start && data[end-1] == '\r' {
		end--
	}
	return start, end
}

// matchedText is the matched bytes, clipped, on one line.
func matchedText(data []byte, s, e int) string {
	if i := bytes.IndexByte(data[s:e], '\n'); i >= 0 {
		e = s + i
	}
	t, _ := clipText(strings.TrimSuffix(string(data[s:e]), "\r"), maxContextBytes)
	return t
}

// contextLines renders the line holding offset s and its neighbours as "line N: text".
func contextLines(data []byte, s, line int) []string {
	start, end := LineBounds(data, s)
	var out []string
	if start > 0 {
		ps, pe := LineBounds(data, start-1)
		out = append(out, fmt.Sprintf("line %d: %s", line-1, ClipLine(data[ps:pe], 0)))
	}
	out = append(out, fmt.Sprintf("line %d: %s", line, ClipLine(data[start:end], s-start)))
	if i := bytes.IndexByte(data[s:], '\n'); i >= 0 && s+i+1 < len(data) {
		ns, ne := LineBounds(data, s+i+1)
		out = append(out, fmt.Sprintf("line %d: %s", line+1, ClipLine(data[ns:ne], 0)))
	}
	return out
}

// ClipLine shortens a long line to about 200 bytes around offset at, marking each
// cut with "…", as a pattern search shows the lines of its matches.
func ClipLine(b []byte, at int) string {
	if len(b) <= maxContextBytes {
		return string(b)
	}
	start := max(0, at-maxContextBytes/3)
	for start > 0 && start < len(b) && !isRuneStart(b[start]) {
		start--
	}
	s, _ := clipText(string(b[start:]), maxContextBytes)
	if start > 0 {
		s = "…" + s
	}
	return s + "…"
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }

// clipText shortens s to at most n bytes without splitting a character, and marks a
// cut with "…".
func clipText(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…", true
}

// frontMatterEnd returns the offset where the body of a note begins: just after the
// closing "---" line of a front matter block at the top, or 0 when there is none.
func frontMatterEnd(data []byte) int {
	i := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		i = 3
	}
	first := data[i:]
	if !bytes.HasPrefix(first, []byte("---\n")) && !bytes.HasPrefix(first, []byte("---\r\n")) {
		return 0
	}
	pos := i + bytes.IndexByte(first, '\n') + 1
	for pos < len(data) {
		s, e := LineBounds(data, pos)
		if l := bytes.TrimRight(data[s:e], " \t"); string(l) == "---" || string(l) == "..." {
			next := bytes.IndexByte(data[e:], '\n')
			if next < 0 {
				return len(data)
			}
			return e + next + 1
		}
		next := bytes.IndexByte(data[pos:], '\n')
		if next < 0 {
			break
		}
		pos += next + 1
	}
	return 0 // no closing fence: not front matter
}
