package gitrepo

import (
	"strings"

	"github.com/memotree/memotree/backend/note"
)

// mergeText merges three versions of a text file (none of them binary): the byte
// order mark apart, a note's front matter property by property (see mergeProps) and
// its body line by line, anything else line by line (Merge3).
func mergeText(markdown bool, base, ours, theirs string, mk markers) (string, bool) {
	hasB, hasO, hasT := strings.HasPrefix(base, bom), strings.HasPrefix(ours, bom), strings.HasPrefix(theirs, bom)
	base, ours, theirs = strings.TrimPrefix(base, bom), strings.TrimPrefix(ours, bom), strings.TrimPrefix(theirs, bom)
	mark := hasO // the mark as either side left it: a side that dropped or added it wins
	if hasO == hasB {
		mark = hasT
	}
	mk.nl = lineEnding(ours, base, theirs)
	out, clean, ok := "", false, false
	if markdown {
		out, clean, ok = mergeNote(base, ours, theirs, mk)
	}
	if !ok {
		out, clean = merge3(base, ours, theirs, mk)
	}
	if mark {
		out = bom + out
	}
	return out, clean
}

// frontSplit is a note cut at its front matter: the opening fence, what precedes the
// first property, each property's lines by key (and the keys in order), the closing
// fence's line and the body.
type frontSplit struct {
	head, lead string
	keys       []string
	props      map[string]string
	close      string
	body       string
}

// splitFront cuts a note at its front matter; ok is false when it has none that
// note.LayoutFrontMatter reads.
func splitFront(text string) (frontSplit, bool) {
	lay, ok := note.LayoutFrontMatter([]byte(text))
	if !ok {
		return frontSplit{}, false
	}
	s := frontSplit{head: text[:lay.Head], props: map[string]string{}, close: text[lay.Close:lay.Body], body: text[lay.Body:]}
	leadEnd := lay.Close
	if len(lay.Props) > 0 {
		leadEnd = lay.Props[0].Start
	}
	s.lead = text[lay.Head:leadEnd]
	for _, p := range lay.Props {
		s.keys = append(s.keys, p.Key)
		s.props[p.Key] = text[p.Start:p.End]
	}
	return s, true
}

// take3 merges a part of no structure of its own: one side's change is taken, the
// same change once; ok is false when both changed it differently.
func take3(base, ours, theirs string) (string, bool) {
	switch {
	case ours == theirs, base == theirs:
		return ours, true
	case base == ours:
		return theirs, true
	}
	return "", false
}

// mergeNote merges three versions of a note whose front matter each reads as a
// mapping: property by property, so that the sides' changes to different properties
// never conflict, and a conflict is one property's lines between markers; the body
// line by line. ok is false when a side has no such front matter, or the fences or
// what precedes the first property differ on both sides: the caller merges the text
// as lines.
func mergeNote(base, ours, theirs string, mk markers) (out string, clean, ok bool) {
	b, okB := splitFront(base)
	o, okO := splitFront(ours)
	t, okT := splitFront(theirs)
	if !okB || !okO || !okT {
		return "", false, false
	}
	var w strings.Builder
	clean = true
	for _, part := range [][3]string{{b.head, o.head, t.head}, {b.lead, o.lead, t.lead}} {
		m, ok := take3(part[0], part[1], part[2])
		if !ok {
			return "", false, false
		}
		w.WriteString(m)
	}
	for _, k := range mergedKeys(b, o, t) {
		bv, ov, tv := b.props[k], o.props[k], t.props[k]
		if m, ok := take3(bv, ov, tv); ok {
			w.WriteString(m)
			continue
		}
		clean = false
		writeConflict(&w, splitKeep(ov), splitKeep(bv), splitKeep(tv), mk)
	}
	cl, ok := take3(b.close, o.close, t.close)
	if !ok {
		return "", false, false
	}
	w.WriteString(cl)
	body, bodyClean := merge3(b.body, o.body, t.body, mk)
	w.WriteString(body)
	return w.String(), clean && bodyClean, true
}

// mergedKeys orders the properties of a merge: ours in their order, and each that
// theirs added after the one it follows in theirs (first when it leads). A property
// absent from a side is the empty string there, so a deletion merges as a change.
func mergedKeys(b, o, t frontSplit) []string {
	out := append([]string{}, o.keys...)
	have := map[string]bool{}
	for _, k := range out {
		have[k] = true
	}
	prev := ""
	for _, k := range t.keys {
		if !have[k] {
			_, inBase := b.props[k]
			if !inBase { // theirs added it (a key ours deleted stays decided by take3)
				at := 0
				for i, x := range out {
					if x == prev {
						at = i + 1
					}
				}
				out = append(out[:at], append([]string{k}, out[at:]...)...)
				have[k] = true
			}
		}
		if have[k] {
			prev = k
		}
	}
	for _, k := range b.keys { // deleted by ours, changed by theirs: a conflict to show
		if !have[k] && t.props[k] != "" && t.props[k] != b.props[k] {
			out = append(out, k)
			have[k] = true
		}
	}
	return out
}
