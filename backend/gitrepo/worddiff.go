package gitrepo

import (
	"strings"
	"unicode"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memotree/memotree/backend/vpath"
)

// MaxDiffBytes is the largest file side FileDiff compares line by line; a larger one
// is reported TooLarge.
const MaxDiffBytes = 2 << 20

// LineKind says whether a diff line is unchanged, added or deleted.
type LineKind string

// The kinds of diff lines.
const (
	Context LineKind = "context"
	Add     LineKind = "add"
	Del     LineKind = "del"
)

// Segment is a piece of a changed line: Changed marks the words that differ from the
// line it is paired with (inserted in an added line, deleted in a deleted one).
type Segment struct {
	Text    string `json:"text"`
	Changed bool   `json:"changed,omitempty"`
}

// DiffLine is one line of a hunk.
type DiffLine struct {
	Kind LineKind `json:"kind"`
	// Old and New are the 1-based line numbers in HEAD and in the working tree; 0 on
	// the side the line is not on.
	Old  int    `json:"old,omitempty"`
	New  int    `json:"new,omitempty"`
	Text string `json:"text"` // without its newline
	// Segments split Text into unchanged and changed words when the line replaces (or
	// is replaced by) a similar line; empty otherwise.
	Segments []Segment `json:"segments,omitempty"`
	// NoNewline marks the last line of a side that ends without a line break (git's
	// "\ No newline at end of file").
	NoNewline bool `json:"no_newline,omitempty"`
	// raw is the line as written, its line break included: what an undo puts back.
	raw string
}

// Hunk is a run of changed lines with their context, as in a unified diff.
type Hunk struct {
	// Number counts the hunks of a file from 1 in file order: the number a hunk is
	// kept or undone by (UndoHunks), the same in the window and the tools.
	Number   int        `json:"number"`
	OldStart int        `json:"old_start"`
	OldLines int        `json:"old_lines"`
	NewStart int        `json:"new_start"`
	NewLines int        `json:"new_lines"`
	Lines    []DiffLine `json:"lines"`
	// Properties, for a hunk that changes only front matter lines of a note whose
	// front matter parses on both sides, are the properties undoing it would change
	// back; a viewer shows them instead of the YAML lines.
	Properties []PropertyChange `json:"properties,omitempty"`
}

// FileDiff is the diff of one pending change, structured for a viewer.
type FileDiff struct {
	Path     vpath.Path `json:"path"`
	From     vpath.Path `json:"from,omitempty"`
	Binary   bool       `json:"binary,omitempty"`
	TooLarge bool       `json:"too_large,omitempty"`
	Added    int        `json:"added"`
	Deleted  int        `json:"deleted"`
	Hunks    []Hunk     `json:"hunks"`
	// Base is the content hash (vault.HashOf) of the working-tree file the diff was
	// made from, "" when it does not exist: UndoHunks takes it back to refuse hunk
	// numbers of an older version.
	Base string `json:"base,omitempty"`
	// HunkUndo is true when hunks can be undone one by one: the file is text on both
	// sides (modified, or renamed with edits), not too large. Otherwise a change is
	// undone whole.
	HunkUndo bool `json:"hunk_undo,omitempty"`
}

// DiffText diffs two texts by lines into hunks with context lines around each change,
// and marks the changed words of paired deleted and added lines. Equal texts give an
// empty, non-nil list.
func DiffText(old, cur string, context int) []Hunk {
	var lines []DiffLine
	o, n := 0, 0
	for _, d := range diff.Do(old, cur) {
		kind := Context
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			kind = Add
		case diffmatchpatch.DiffDelete:
			kind = Del
		}
		for _, raw := range rawLines(d.Text) {
			text, noEOL := strings.CutSuffix(raw, "\n")
			l := DiffLine{Kind: kind, Text: text, NoNewline: !noEOL, raw: raw}
			if kind != Add {
				o++
				l.Old = o
			}
			if kind != Del {
				n++
				l.New = n
			}
			lines = append(lines, l)
		}
	}
	hunks := cutHunks(lines, context)
	for i := range hunks {
		hunks[i].Number = i + 1
		pairWords(hunks[i].Lines)
	}
	if hunks == nil {
		hunks = []Hunk{} // equal texts (a change undone meanwhile): an empty list, never JSON null
	}
	return hunks
}

// rawLines splits text into lines, each with its line break (the last one may have
// none).
func rawLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// cutHunks keeps the changed lines and up to context lines around them, in hunks.
func cutHunks(lines []DiffLine, context int) []Hunk {
	var out []Hunk
	for i := 0; i < len(lines); {
		if lines[i].Kind == Context {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i // one past the last changed line of the hunk
		for j := i; j < len(lines); j++ {
			if lines[j].Kind != Context {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		stop := min(end+context, len(lines))
		out = append(out, hunkOf(lines[start:stop]))
		i = stop
	}
	return out
}

// hunkOf computes a hunk's header from its lines.
func hunkOf(lines []DiffLine) Hunk {
	h := Hunk{Lines: lines}
	for _, l := range lines {
		if l.Old > 0 {
			if h.OldLines == 0 {
				h.OldStart = l.Old
			}
			h.OldLines++
		}
		if l.New > 0 {
			if h.NewLines == 0 {
				h.NewStart = l.New
			}
			h.NewLines++
		}
	}
	return h
}

// pairWords pairs each run of deleted lines with the run of added lines after it, line
// by line, and gives each pair of similar lines its word segments.
func pairWords(lines []DiffLine) {
	for i := 0; i < len(lines); {
		if lines[i].Kind != Del {
			i++
			continue
		}
		d := i
		for i < len(lines) && lines[i].Kind == Del {
			i++
		}
		a := i
		for i < len(lines) && lines[i].Kind == Add {
			i++
		}
		for k := 0; k < min(a-d, i-a); k++ {
			lines[d+k].Segments, lines[a+k].Segments = wordDiff(lines[d+k].Text, lines[a+k].Text)
		}
	}
}

// wordDiff splits two lines into segments, marking the words that differ; nil, nil
// when the lines have too little in common for word marks to help.
func wordDiff(old, cur string) ([]Segment, []Segment) {
	ta, tb := tokens(old), tokens(cur)
	code := map[string]rune{}
	var words []string
	encode := func(ts []string) []rune {
		out := make([]rune, len(ts))
		for i, t := range ts {
			r, ok := code[t]
			if !ok {
				r = tokenRune(len(words))
				code[t] = r
				words = append(words, t)
			}
			out[i] = r
		}
		return out
	}
	ra, rb := encode(ta), encode(tb)
	dmp := diffmatchpatch.New()
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(ra, rb, false))
	var segA, segB []Segment
	same := 0
	for _, d := range diffs {
		var b strings.Builder
		for _, r := range d.Text {
			b.WriteString(words[runeToken(r)])
		}
		text := b.String()
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			segA, segB = appendSeg(segA, text, false), appendSeg(segB, text, false)
			same += len(strings.TrimSpace(text))
		case diffmatchpatch.DiffDelete:
			segA = appendSeg(segA, text, true)
		case diffmatchpatch.DiffInsert:
			segB = appendSeg(segB, text, true)
		}
	}
	if 4*same < len(strings.TrimSpace(old))+len(strings.TrimSpace(cur)) {
		return nil, nil // less than half of each line in common: a rewrite, not an edit
	}
	return segA, segB
}

// appendSeg appends text as a segment, merging it with the last one of the same kind.
func appendSeg(s []Segment, text string, changed bool) []Segment {
	if text == "" {
		return s
	}
	if n := len(s); n > 0 && s[n-1].Changed == changed {
		s[n-1].Text += text
		return s
	}
	return append(s, Segment{Text: text, Changed: changed})
}

// tokenRune and runeToken map token numbers to runes that are valid in a string
// (surrogates skipped), so the rune diff can run on whole words.
func tokenRune(i int) rune {
	r := rune(0x100 + i)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

func runeToken(r rune) int {
	if r >= 0xE000 {
		r -= 0x800
	}
	return int(r - 0x100)
}

// tokens splits a line into words (runs of letters, digits and marks), runs of
// spaces, and single other characters; each Han, kana or hangul character is a word of
// its own, since those scripts do not separate words by spaces.
func tokens(s string) []string {
	var out []string
	start := -1
	class := 0 // 1 word, 2 space
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i, r := range s {
		c := 3
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			c = 4
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_':
			c = 1
		case unicode.IsSpace(r):
			c = 2
		}
		if c != class || c >= 3 {
			flush(i)
		}
		if start < 0 {
			start = i
		}
		class = c
	}
	flush(len(s))
	return out
}
