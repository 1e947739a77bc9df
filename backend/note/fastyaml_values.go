package note

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/internal/utf8x"
)

// fastBytesOK reports whether b is valid UTF-8 holding only characters YAML v3 reads as
// printable, no tab, and no line break other than "\n" and "\r\n".
func fastBytesOK(b []byte) bool {
	if !utf8x.Valid(b) {
		return false
	}
	for i, c := range b {
		switch {
		case c == '\n' || c >= ' ' && c < 0x7f:
		case c == '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				return false
			}
		case c == 0xC2:
			if i+1 < len(b) && b[i+1] < 0xA0 {
				return false // C1 controls and NEL
			}
		case c == 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				return false // line and paragraph separators
			}
		case c == 0xEF:
			if i+2 < len(b) && (b[i+1] == 0xBB && b[i+2] == 0xBF || b[i+1] == 0xBF && b[i+2] >= 0xBE) {
				return false // BOM, U+FFFE, U+FFFF
			}
		case c < 0x80:
			return false
		}
	}
	return true
}

// fastProps converts a fast-path tree to property values; it reports false when a key
// is not a plain string, so YAML v3 must decode the block.
func fastProps(m *yaml.Node) (map[string]any, bool) {
	props := make(map[string]any, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!str" {
			return nil, false
		}
		v, ok := fastValue(m.Content[i+1])
		if !ok {
			return nil, false
		}
		props[m.Content[i].Value] = v
	}
	return props, true
}

// fieldKeys are the properties Note's own fields are read from.
var fieldKeys = [...]string{"entity type", "type", "summary", "aliases", "alias", "tags", "tag"}

// fieldValues holds the values of fieldKeys, in their order; nil where absent.
type fieldValues [len(fieldKeys)]any

// get returns the value of key, one of fieldKeys.
func (f *fieldValues) get(key string) any { return f[slices.Index(fieldKeys[:], key)] }

// from takes the values of fieldKeys from decoded properties.
func (f *fieldValues) from(props map[string]any) {
	for i, k := range fieldKeys {
		f[i] = props[k]
	}
}

// fastFields is fastProps for ParseLean: it accepts exactly the trees fastProps
// accepts, but converts only the values of fieldKeys, into f, and builds no map.
func fastFields(m *yaml.Node, f *fieldValues) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Tag != "!!str" {
			return false
		}
		j := slices.Index(fieldKeys[:], k.Value)
		if j < 0 {
			if !fastValid(m.Content[i+1]) {
				return false
			}
			continue
		}
		v, ok := fastField(m.Content[i+1])
		if !ok {
			return false
		}
		f[j] = v
	}
	return true
}

// nodeString and nodeList are what fastField gives for a string scalar and a list:
// views of the parser's node, valid until the parser is released, which fit in an
// interface with no allocation (a pointer each) where a string or a []any takes one
// or more. stringProp, listItems and listLen read them as the string and the []any
// fastValue would have built; ParseLean then leaves no garbage for the values of a
// note's fields (a tenth of a megabyte for each thousand notes, which the index,
// with the collector off, paid for in fresh pages).
type (
	nodeString struct{ n *yaml.Node }
	nodeList   struct{ n *yaml.Node }
)

// fastField is fastValue for fastFields.
func fastField(n *yaml.Node) (any, bool) {
	switch {
	case n.Kind == yaml.SequenceNode:
		return nodeList{n}, fastValid(n)
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		return nodeString{n}, true
	}
	return fastValue(n)
}

// itemOf returns list item c of a nodeList as fastValue converts it.
func itemOf(c *yaml.Node) any {
	if c.Kind == yaml.ScalarNode && c.Tag == "!!str" {
		return nodeString{c}
	}
	v, _ := fastValue(c) // fastValid accepted the list
	return v
}

// fastValid reports whether fastValue would convert n, building as little as it can.
func fastValid(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag != "!!str" || !fastValid(n.Content[i+1]) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if !fastValid(c) {
				return false
			}
		}
		return true
	}
	// The fast path makes only untagged, "!!str" and "!!null" scalars, and YAML v3
	// decodes an untagged plain scalar into an interface without fail (its resolver
	// falls back to a string): nothing to check, and no value to build.
	return n.Tag == "" || n.Tag == "!!str" || n.Tag == "!!null"
}

// fastValue converts one fast-path node.
func fastValue(n *yaml.Node) (any, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		return fastProps(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, ok := fastValue(c)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	switch n.Tag {
	case "!!str":
		return n.Value, true
	case "!!null":
		return nil, true
	}
	if v, ok := quickResolve(n.Value); ok {
		return v, true
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// timestampFormats are the layouts YAML v3 accepts for an untagged timestamp.
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// quickResolve decodes an untagged plain scalar exactly as YAML v3's resolver does
// (its resolve function, which it follows step by step) for the values front matter
// holds: null, booleans, integers, floats, timestamps and strings. It reports false
// for the rare rest (infinities, NaN, merge keys), which Decode then reads.
func quickResolve(v string) (any, bool) {
	if v == "" {
		return nil, false
	}
	switch v {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	case "~", "null", "Null", "NULL":
		return nil, true
	case "<<":
		return nil, false
	}
	switch c := v[0]; {
	case c == '.':
		if strings.EqualFold(v, ".inf") || strings.EqualFold(v, ".nan") {
			return nil, false
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f, true
		}
		return v, true
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return resolveNumeric(v)
	}
	return v, true
}

// resolveNumeric is quickResolve for a scalar starting with a digit or a sign.
func resolveNumeric(v string) (any, bool) {
	if strings.HasSuffix(v, ".inf") || strings.HasSuffix(v, ".Inf") || strings.HasSuffix(v, ".INF") {
		return nil, false
	}
	if t, ok := parseTimestamp(v); ok {
		return t, true
	}
	plain := strings.ReplaceAll(v, "_", "")
	if n, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return int(n), true
	}
	if n, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return n, true
	}
	if yamlStyleFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return f, true
		}
	}
	for _, pre := range [...]struct {
		prefix string
		base   int
	}{{"0b", 2}, {"-0b", 2}, {"0o", 8}, {"-0o", 8}} {
		if !strings.HasPrefix(plain, pre.prefix) {
			continue
		}
		digits := plain[len(pre.prefix):]
		if pre.prefix[0] == '-' {
			digits = "-" + digits
		}
		if n, err := strconv.ParseInt(digits, pre.base, 64); err == nil {
			return int(n), true
		}
		if pre.prefix[0] != '-' {
			if n, err := strconv.ParseUint(digits, pre.base, 64); err == nil {
				return n, true
			}
		}
		break
	}
	return v, true
}

// parseTimestamp is YAML v3's: a date starting with four digits and a hyphen, in one
// of timestampFormats.
func parseTimestamp(v string) (time.Time, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i != 4 || i == len(v) || v[i] != '-' {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil && strings.IndexByte(v, 't') < 0 {
		return t, true // Go's fast path; the same instant YAML v3's layout gives
	}
	for _, f := range timestampFormats {
		if t, err := time.Parse(f, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// yamlStyleFloat reports whether s matches YAML v3's float pattern,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
