package catalog

import (
	"bytes"
	"reflect"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/note"
)

// appendRelationsKey adds a "relations" key holding seq at the end of the front matter
// of src, which has none, by inserting text before the closing fence; it returns false
// when the note or the items are outside the case it handles, and note.SetProperties
// does the work. The case: the note starts with a front matter block with LF line
// endings and a closing "---" line, and every item is a relation as relationItem
// builds it, whose type is a plain YAML scalar (plainSafe) and whose target holds only
// characters that a double-quoted scalar keeps as they are. Within that case the bytes
// are exactly SetProperties' (TestAppendRelationsKeyMatchesSetProperties), and the
// result is parsed back and checked before it is used.
func appendRelationsKey(src []byte, n *note.Note, seq *yaml.Node) ([]byte, bool) {
	end := n.FrontMatterEnd
	if n.FrontMatterStart != 0 || end < 8 || end > len(src) || !bytes.HasPrefix(src, []byte("---\n")) ||
		!bytes.HasSuffix(src[:end], []byte("\n---\n")) || len(seq.Content) == 0 || !utf8.Valid(src) {
		return nil, false
	}
	var b strings.Builder
	b.WriteString(relationsKey + ":\n")
	for _, item := range seq.Content {
		typ, to, ok := simpleRelationItem(item)
		if !ok {
			return nil, false
		}
		b.WriteString("  - " + relationTypeKey + ": " + typ + "\n    " + relationToKey + ": \"" + to + "\"\n")
	}
	at := end - len("---\n")
	out := make([]byte, 0, len(src)+b.Len())
	out = append(out, src[:at]...)
	out = append(out, b.String()...)
	out = append(out, src[at:]...)
	if !appendedRelations(out, n, seq) {
		return nil, false
	}
	return out, true
}

// appendedRelations verifies out, the note n with relations appended: it parses with
// no new warning, its relations are seq's items and its other properties are n's.
func appendedRelations(out []byte, n *note.Note, seq *yaml.Node) bool {
	m := note.Parse(out)
	got, _, err := relationsSeq(out, m)
	if err != nil || len(m.Warnings) != len(n.Warnings) || len(got.Content) != len(seq.Content) ||
		len(m.Properties) != len(n.Properties)+1 {
		return false
	}
	for i, item := range seq.Content {
		t1, to1 := itemFields(item)
		t2, to2 := itemFields(got.Content[i])
		if t1 != t2 || to1 != to2 {
			return false
		}
	}
	for k, v := range n.Properties {
		if !reflect.DeepEqual(m.Properties[k], v) {
			return false
		}
	}
	return true
}

// simpleRelationItem returns the type and the "relation to" text of an item made by
// relationItem, when both can be written without quoting rules: the type a plain
// scalar, the target ASCII letters, digits, spaces and -_./()[] only.
func simpleRelationItem(item *yaml.Node) (typ, to string, ok bool) {
	c := item.Content
	if item.Kind != yaml.MappingNode || len(c) != 4 || c[0].Value != relationTypeKey || c[2].Value != relationToKey ||
		c[1].Style != 0 || c[3].Style != yaml.DoubleQuotedStyle || !plainSafe(c[1].Value) {
		return "", "", false
	}
	to = c[3].Value
	if to == "" || len(to) > maxRelationTarget+4 {
		return "", "", false
	}
	for i := 0; i < len(to); i++ {
		ch := to[i]
		if !isASCIILetter(ch) && !('0' <= ch && ch <= '9') && !strings.ContainsRune(" -_./()[]", rune(ch)) {
			return "", "", false
		}
	}
	return c[1].Value, to, true
}
