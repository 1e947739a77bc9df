package catalog

import (
	"bytes"
	"time"

	"github.com/memotree/memotree/backend/note"
)

// dateModifiedKey is the front matter property that says when a note last changed
// (DESIGN's vault format; Obsidian's Properties show it as a date and time).
const dateModifiedKey = "date modified"

// modifiedValue is the value "date modified" takes in the note src for a write at
// now. It is the one place that decides how a new date is written: in the format the
// note already uses, else the form Obsidian's Properties read as a date and time (see
// note.DateValue).
func modifiedValue(src []byte, now time.Time) any {
	return note.DateValue(src, dateModifiedKey, now)
}

// touchModified returns src with its "date modified" set to now, when the note has
// that property: every tool write that changes a note (an edit, a relation, a rename,
// a move, a merge, a link rewritten elsewhere) calls it on the new content. A note
// without the property keeps its front matter as it is (a plain note the person wrote
// does not gain one because a link in it was rewritten); update_entity and
// create_entity write it themselves. A note whose front matter cannot be rewritten is
// returned unchanged: the write it belongs to still happens.
func touchModified(src []byte, now time.Time) []byte {
	if !bytes.Contains(src, []byte(dateModifiedKey)) {
		return src
	}
	if out, ok := note.SetDateLine(src, dateModifiedKey, now); ok {
		return out // the date on a line of its own: one read of the front matter
	}
	n := note.Parse(src)
	if _, ok := n.Properties[dateModifiedKey]; !ok {
		return src
	}
	return setModified(src, now)
}

// setModified sets "date modified" to now, adding the property when the note lacks
// it; a note whose front matter cannot be rewritten is returned unchanged.
func setModified(src []byte, now time.Time) []byte {
	out, err := note.SetProperties(src, []note.Property{{Key: dateModifiedKey, Value: modifiedValue(src, now)}}, nil)
	if err != nil {
		return src
	}
	return out
}
