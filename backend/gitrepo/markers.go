package gitrepo

import (
	"bytes"
	"strings"
)

// Conflict markers as git writes them (merge-file, conflict-marker-size 7): a region
// opens with a line "<<<<<<< label", may hold the base after a line "||||||| label"
// (merge.conflictStyle diff3 or zdiff3), splits at a line "=======" and closes with a
// line ">>>>>>> label". MemoTree's own merge writes the same.
const (
	markOurs   = "<<<<<<<"
	markBase   = "|||||||"
	markSplit  = "======="
	markTheirs = ">>>>>>>"
)

// region is one conflict of a text: the byte span of its lines, markers included,
// and its sides' lines.
type region struct {
	start, end             int
	line                   int // 1-based line of its opening marker
	ours, base, theirs     string
	hasBase                bool
	oursLabel, theirsLabel string
}

// markerLine reports whether line (without its line end) is the marker mark, alone
// or followed by a space and a label, as git writes it: not a longer run of the
// character (a Markdown rule "========", say).
func markerLine(line, mark string, label bool) bool {
	if !strings.HasPrefix(line, mark) {
		return false
	}
	rest := line[len(mark):]
	if rest == "" {
		return true
	}
	return label && rest[0] == ' '
}

// fenceOf returns the fence a Markdown line opens or closes ("```" or "~~~" runs of
// three or more, indented by up to three spaces), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// conflictRegions finds the complete conflict regions of text in order. With
// markdown set, markers inside a fenced code block outside any region do not count:
// a note that shows git's markers as an example holds no conflict.
func conflictRegions(text string, markdown bool) []region {
	var out []region
	const (
		outside = iota
		inOurs
		inBase
		inTheirs
	)
	state := outside
	fence := ""
	var cur region
	var part strings.Builder
	pos, lineNo := 0, 0
	for pos < len(text) {
		lineNo++
		end := strings.IndexByte(text[pos:], '\n')
		next := len(text)
		if end >= 0 {
			next = pos + end + 1
		}
		raw := text[pos:next]
		line := strings.TrimRight(raw, "\r\n")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, bom)
		}
		switch {
		case state == outside && fence != "":
			if f := fenceOf(line); f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(line) == f {
				fence = ""
			}
		case markerLine(line, markOurs, true):
			cur = region{start: pos, line: lineNo, oursLabel: strings.TrimSpace(line[len(markOurs):])}
			part.Reset()
			state = inOurs
		case state == outside:
			if f := fenceOf(line); markdown && f != "" {
				fence = f
			}
		case state == inOurs && markerLine(line, markBase, true):
			cur.ours, cur.hasBase = part.String(), true
			part.Reset()
			state = inBase
		case (state == inOurs || state == inBase) && markerLine(line, markSplit, false):
			if state == inOurs {
				cur.ours = part.String()
			} else {
				cur.base = part.String()
			}
			part.Reset()
			state = inTheirs
		case state == inTheirs && markerLine(line, markTheirs, true):
			cur.theirs, cur.end = part.String(), next
			cur.theirsLabel = strings.TrimSpace(line[len(markTheirs):])
			out = append(out, cur)
			state = outside
		default:
			part.WriteString(raw)
		}
		pos = next
	}
	return out
}

// bom is the UTF-8 byte order mark some editors put at the start of a file.
const bom = "\ufeff"

// HasConflictMarkers reports whether text holds a complete conflict region (see
// conflictRegions); for a Markdown note (markdown set), markers shown in a fenced
// code block do not count.
func HasConflictMarkers(text []byte, markdown bool) bool {
	if !bytes.Contains(text, []byte(markOurs)) {
		return false // the common case, decided without copying the file
	}
	return len(conflictRegions(string(text), markdown)) > 0
}

// Choice is how a conflict is resolved: one side, both, or as the file now stands.
type Choice string

// The choices of a resolution.
const (
	TakeOurs   Choice = "ours"   // the local side: what this copy had before the pull
	TakeTheirs Choice = "theirs" // the side the pull brought in
	TakeBoth   Choice = "both"   // ours, then theirs
	// TakeAsEdited keeps the file as it stands, its markers removed by hand: it marks
	// the conflict resolved (as `git add` does).
	TakeAsEdited Choice = "as_edited"
)

// resolveRegions replaces the regions of text numbered in hunks (1-based; all when
// empty) by the chosen side and returns the result and how many regions remain.
func resolveRegions(text string, regions []region, hunks []int, take Choice) (string, int) {
	chosen := map[int]bool{}
	for _, h := range hunks {
		chosen[h] = true
	}
	var b strings.Builder
	pos, left := 0, 0
	for i, rg := range regions {
		if len(hunks) > 0 && !chosen[i+1] {
			left++
			continue
		}
		b.WriteString(text[pos:rg.start])
		if rg.start == 0 && strings.HasPrefix(text, bom) {
			b.WriteString(bom) // the opening marker stood after the mark
		}
		switch take {
		case TakeOurs:
			b.WriteString(rg.ours)
		case TakeTheirs:
			b.WriteString(rg.theirs)
		case TakeBoth:
			b.WriteString(rg.ours)
			if rg.ours != "" && !strings.HasSuffix(rg.ours, "\n") {
				b.WriteString("\n")
			}
			b.WriteString(rg.theirs)
		}
		pos = rg.end
	}
	b.WriteString(text[pos:])
	return b.String(), left
}
