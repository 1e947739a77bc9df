package note

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// SetDateLine sets the date property key that src's front matter already holds to
// now, in the layout its value is written in, by rewriting that one line. It is the
// fast path of SetProperties(src, {key: DateValue(src, key, now)}) that every tool
// write takes to touch "date modified": the front matter is read once, by the fast
// YAML path, where SetProperties and DateValue read it three times with YAML v3. ok
// is false, and src is to be given to SetProperties, unless the result is certainly
// the one SetProperties would write: block-style front matter the fast path reads,
// with no key defined twice, in which key is a plain key whose plain value, a date in
// one of the known layouts, fills the rest of its line, and the next key (or the
// closing fence) starts on the next line. FuzzSetDateLine checks the two agree.
func SetDateLine(src []byte, key string, now time.Time) (out []byte, ok bool) {
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	if !utf8.Valid(src) || otherFormatOf(src, start) != "" {
		return nil, false
	}
	fm := findFrontMatter(src, start)
	if !fm.ok {
		return nil, false
	}
	root, fp := fastFrontMatterPooled(src, fm.yamlStart, fm.yamlEnd, false)
	if root == nil {
		return nil, false
	}
	defer fp.release()
	if _, ok := fastProps(root); !ok || root.Style&yaml.FlowStyle != 0 || twiceDefined(root) {
		return nil, false
	}
	i := 0
	for ; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			break
		}
	}
	if i+1 >= len(root.Content) {
		return nil, false
	}
	k, v := root.Content[i], root.Content[i+1]
	if k.Style != 0 || k.Column != 1 || v.Kind != yaml.ScalarNode || v.Style != 0 || v.Line != k.Line {
		return nil, false
	}
	ls := lineStartOf(src, fm.yamlStart, fm.yamlEnd, k.Line)
	if ls < 0 {
		return nil, false
	}
	le, next := lineBounds(src, ls)
	if string(src[ls:le]) != key+": "+v.Value {
		return nil, false // a comment, a space or anything else after the value
	}
	if i+2 < len(root.Content) && root.Content[i+2].Line != k.Line+1 || i+2 >= len(root.Content) && next != fm.yamlEnd {
		return nil, false // lines before the next key, which SetProperties may rewrite
	}
	layout, isDate := dateLayoutOf(v.Value)
	if !isDate || strings.TrimSpace(v.Value) != v.Value {
		return nil, false
	}
	t := now.Local()
	if strings.HasSuffix(v.Value, "Z") {
		t = now.UTC()
	} else {
		layout = strings.Replace(layout, "Z07:00", "-07:00", 1)
	}
	nl := "\n"
	if j := bytes.IndexByte(src, '\n'); j > 0 && src[j-1] == '\r' {
		nl = "\r\n"
	}
	// The line marshalProps would write: a key the fast path read as a plain string,
	// and a date of a known layout, which YAML writes plain in a block mapping (no
	// leading indicator, no ": " or " #", no space at either end; every layout is
	// checked in TestSetDateLineEveryLayout).
	value := t.Format(layout)
	out = make([]byte, 0, len(src)+8)
	out = append(append(out, src[:ls]...), key...)
	out = append(append(append(append(out, ": "...), value...), nl...), src[next:]...)
	return out, true
}

// lineStartOf returns the offset of the line-th line (1-based) of src[from:to], or -1.
func lineStartOf(src []byte, from, to, line int) int {
	pos := from
	for l := 1; l < line; l++ {
		j := bytes.IndexByte(src[pos:to], '\n')
		if j < 0 {
			return -1
		}
		pos += j + 1
	}
	if pos >= to {
		return -1
	}
	return pos
}

// twiceDefined reports whether a mapping of the tree defines a key twice, which
// YAML v3 refuses to decode (and SetProperties with it).
func twiceDefined(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			for j := i + 2; j+1 < len(n.Content); j += 2 {
				if n.Content[i].Value == n.Content[j].Value {
					return true
				}
			}
		}
	}
	for _, c := range n.Content {
		if twiceDefined(c) {
			return true
		}
	}
	return false
}
