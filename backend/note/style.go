package note

import (
	"bytes"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// A note keeps its own conventions through every write: its line endings (LF or
// CRLF), its byte order mark, whether it ends with a line break, and the format of its
// dates. The functions here give new text the note's conventions and check a rewrite
// against the original.

// LineEnding returns the line ending a note uses: "\r\n" when its first line break is
// CRLF, else "\n" (as SetProperties writes new keys).
func LineEnding(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// InLineEndings returns text with its line breaks written the way the note src writes
// them: LF becomes CRLF in a CRLF note, and CRLF becomes LF in a note that has no CRLF.
func InLineEndings(src []byte, text string) string {
	if LineEnding(src) == "\r\n" {
		return toCRLF(text)
	}
	if !bytes.Contains(src, []byte("\r\n")) {
		return strings.ReplaceAll(text, "\r\n", "\n")
	}
	return text
}

// toCRLF turns every bare LF of s into CRLF.
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// KeepStyle returns next, the new content of a note whose content was old, with old's
// conventions where next lost them: a note whose every line break was CRLF keeps only
// CRLF (every bare LF of next is new text), a note without CRLF keeps only LF; a BOM
// stays (or stays away); and a note that ended without a line break still does, one
// that ended with one still does. A note that mixed line endings is left as next has
// it. An empty old gives next as it is.
func KeepStyle(old, next []byte) []byte {
	if len(old) == 0 || len(next) == 0 {
		return next
	}
	out := next
	crlf, lf := countBreaks(old)
	switch {
	case crlf > 0 && lf == 0:
		if _, bare := countBreaks(out); bare > 0 {
			out = []byte(toCRLF(string(out)))
		}
	case crlf == 0 && lf > 0 && bytes.Contains(out, []byte("\r\n")):
		out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
	}
	switch hadBOM, hasBOM := bytes.HasPrefix(old, bom), bytes.HasPrefix(out, bom); {
	case hadBOM && !hasBOM:
		out = append(append([]byte{}, bom...), out...)
	case !hadBOM && hasBOM:
		out = out[len(bom):]
	}
	endsOld, endsNew := bytes.HasSuffix(old, []byte("\n")), bytes.HasSuffix(out, []byte("\n"))
	switch {
	case endsOld && !endsNew:
		out = append(out[:len(out):len(out)], LineEnding(old)...)
	case !endsOld && endsNew && len(bytes.TrimRight(old, "\r\n")) > 0:
		out = bytes.TrimSuffix(out, []byte("\n"))
		out = bytes.TrimSuffix(out, []byte("\r"))
	}
	return out
}

// countBreaks counts CRLF and bare LF line breaks.
func countBreaks(b []byte) (crlf, lf int) {
	for i, c := range b {
		if c == '\n' {
			if i > 0 && b[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
		}
	}
	return crlf, lf
}

// DateLayout is how MemoTree writes a date and time no note has a format for yet: the
// form Obsidian's Properties read as a "Date & time" property (local time, no zone).
const DateLayout = "2006-01-02T15:04:05"

// dateLayouts are the formats a note may already use for a date, tried in order; a
// value is in a layout when it formats back to itself.
var dateLayouts = []string{
	"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05.000",
	"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05-07:00", "2006-01-02T15:04:05.000Z07:00",
	"2006-01-02T15:04:05.000-07:00", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05-0700",
	"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05-07:00",
	"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 -07:00", "2006-01-02", "2006/01/02", "2006/01/02 15:04",
	"2006/01/02 15:04:05", "02.01.2006", "January 2, 2006", "2 January 2006",
}

// dateKeys are the properties whose format a new date value follows, in order: the key
// itself first.
var dateKeys = []string{"date modified", "date created", "modified", "created", "updated", "date"}

// DateValue returns the value to store under the date property key of the note src
// for the time now: in the format the note already uses for key (or, failing that, for
// another of its date properties), quoted as it was quoted, in the time zone that
// format implies (UTC for a trailing Z, the local zone otherwise); in DateLayout when
// the note has none. The value is a YAML node for SetProperties.
func DateValue(src []byte, key string, now time.Time) *yaml.Node {
	layout, style, utc := DateLayout, yaml.Style(0), false
	if root := frontMatterNode(src); root != nil {
		for _, k := range append([]string{key}, dateKeys...) {
			v := mapValue(root, k)
			if v == nil || v.Kind != yaml.ScalarNode {
				continue
			}
			if l, ok := dateLayoutOf(v.Value); ok {
				layout, utc = l, strings.HasSuffix(v.Value, "Z")
				if !utc { // a written offset stays one, "+00:00" in UTC rather than "Z"
					layout = strings.Replace(layout, "Z07:00", "-07:00", 1)
				}
				style = v.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle)
				break
			}
		}
	}
	t := now.Local()
	if utc {
		t = now.UTC()
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: t.Format(layout), Style: style}
}

// dateLayoutOf returns the layout of a date value, if it is in one of dateLayouts.
func dateLayoutOf(v string) (string, bool) {
	v = strings.TrimSpace(v)
	for _, l := range dateLayouts {
		t, err := time.Parse(l, v)
		if err == nil && t.Format(l) == v {
			return l, true
		}
	}
	return "", false
}

// frontMatterNode returns the front matter of src as a YAML mapping, or nil.
func frontMatterNode(src []byte) *yaml.Node {
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	fm := findFrontMatter(src, start)
	if !fm.ok {
		return nil
	}
	root, err := decodeFrontMatter(src, fm)
	if err != nil {
		return nil
	}
	return root
}
