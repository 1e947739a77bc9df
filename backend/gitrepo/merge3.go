package gitrepo

import (
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// edit replaces the base lines [start, end) by lines.
type edit struct {
	start, end int
	lines      []string
}

// Merge3 merges two texts that both descend from base, line by line, as git's merge
// does: changes made on one side only are taken; the same change made on both sides
// is taken once; different changes to the same lines keep both versions between
// conflict markers labelled oursLabel and theirsLabel. clean is false when it wrote
// a conflict. The markers end with the line ending of ours (CRLF in a Windows note,
// as git writes them).
func Merge3(base, ours, theirs, oursLabel, theirsLabel string) (merged string, clean bool) {
	return merge3(base, ours, theirs, markers{ours: oursLabel, theirs: theirsLabel, nl: lineEnding(ours, base)})
}

// markers say how a merge writes a conflict: the sides' labels, the line ending, and
// whether the base is written too, after a "|||||||" line (git's diff3 style).
type markers struct {
	ours, theirs, base string
	nl                 string
	diff3              bool
}

// lineEnding returns "\r\n" when the first line of the first text that has one ends
// so, else "\n".
func lineEnding(texts ...string) string {
	for _, t := range texts {
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			if i > 0 && t[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

// merge3 is Merge3 with the markers mk.
func merge3(base, ours, theirs string, mk markers) (merged string, clean bool) {
	if ours == theirs {
		return ours, true
	}
	if base == ours {
		return theirs, true
	}
	if base == theirs {
		return ours, true
	}
	b := splitKeep(base)
	eo, et := edits(base, ours), edits(base, theirs)
	var out strings.Builder
	clean = true
	pos, i, j := 0, 0, 0
	for i < len(eo) || j < len(et) {
		// The next group: the earliest edit and every edit of either side it overlaps.
		var first edit
		if j >= len(et) || (i < len(eo) && eo[i].start <= et[j].start) {
			first = eo[i]
		} else {
			first = et[j]
		}
		gs, ge := first.start, first.end
		i0, j0 := i, j
		for {
			grown := false
			for i < len(eo) && overlaps(eo[i], gs, ge) {
				ge = max(ge, eo[i].end)
				i++
				grown = true
			}
			for j < len(et) && overlaps(et[j], gs, ge) {
				ge = max(ge, et[j].end)
				j++
				grown = true
			}
			if !grown {
				break
			}
		}
		writeLines(&out, b[pos:gs])
		o, t := eo[i0:i], et[j0:j]
		switch {
		case len(t) == 0:
			writeLines(&out, apply(b, gs, ge, o))
		case len(o) == 0:
			writeLines(&out, apply(b, gs, ge, t))
		default:
			ol, tl := apply(b, gs, ge, o), apply(b, gs, ge, t)
			if strings.Join(ol, "") == strings.Join(tl, "") {
				writeLines(&out, ol)
				break
			}
			clean = false
			writeConflict(&out, ol, b[gs:ge], tl, mk)
		}
		pos = ge
	}
	writeLines(&out, b[pos:])
	return out.String(), clean
}

// overlaps reports whether e touches the group [gs, ge): it shares a line with it, or
// inserts at its start, or the group is an insertion inside e.
func overlaps(e edit, gs, ge int) bool {
	switch {
	case e.start == gs:
		return true
	case e.start < ge && gs < e.end:
		return true
	case gs == ge && e.start < gs && gs < e.end:
		return true
	}
	return e.start == e.end && gs < e.start && e.start < ge
}

// apply returns the base lines [gs, ge) with the edits (all within them) applied.
func apply(b []string, gs, ge int, es []edit) []string {
	var out []string
	pos := gs
	for _, e := range es {
		out = append(out, b[pos:e.start]...)
		out = append(out, e.lines...)
		pos = e.end
	}
	return append(out, b[pos:ge]...)
}

// edits lists the changes that turn base into text, as replacements of base lines.
func edits(base, text string) []edit {
	var out []edit
	pos := 0
	var cur *edit
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, d := range diff.Do(base, text) {
		lines := splitKeep(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			pos += len(lines)
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				cur = &edit{start: pos, end: pos}
			}
			pos += len(lines)
			cur.end = pos
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				cur = &edit{start: pos, end: pos}
			}
			cur.lines = append(cur.lines, lines...)
		}
	}
	flush()
	return out
}

// splitKeep splits text into lines that keep their newline; the last line may lack one.
func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// writeConflict writes both sides of a conflict between markers (and its base, in
// the diff3 style).
func writeConflict(out *strings.Builder, ours, base, theirs []string, mk markers) {
	out.WriteString(markOurs + " " + mk.ours + mk.nl)
	writeLines(out, terminated(ours, mk.nl))
	if mk.diff3 {
		out.WriteString(markBase + " " + mk.base + mk.nl)
		writeLines(out, terminated(base, mk.nl))
	}
	out.WriteString(markSplit + mk.nl)
	writeLines(out, terminated(theirs, mk.nl))
	out.WriteString(markTheirs + " " + mk.theirs + mk.nl)
}

// terminated adds the line ending nl to a last line that lacks one, so markers start
// a line.
func terminated(lines []string, nl string) []string {
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines = append(lines[:n-1:n-1], lines[n-1]+nl)
	}
	return lines
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
	}
}
