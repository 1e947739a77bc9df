package note

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// FrontMatterLayout is where a note's YAML front matter lies and how its top-level
// properties split it, as byte offsets into the note: the note is src[:Head] (the
// BOM and the opening fence), then src[Head:Props[0].Start] (comments or blank lines
// before the first property), the properties in order, each Props[i].Start to
// Props[i].End (the next property's start: a property owns the comments and blank
// lines after it), src[Close:Body] (the closing fence's line) and src[Body:] (the body).
type FrontMatterLayout struct {
	Head  int
	Props []PropertySpan
	Close int
	Body  int
}

// PropertySpan is one top-level property's lines in the front matter.
type PropertySpan struct {
	Key        string
	Start, End int
}

// LayoutFrontMatter splits the YAML front matter of src by top-level property. ok is
// false when src has none, or front matter YAML v3 cannot read as a block mapping of
// distinct plain keys, or another format's (TOML, JSON).
func LayoutFrontMatter(src []byte) (FrontMatterLayout, bool) {
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	if f := otherFormatOf(src, start); f != "" {
		return FrontMatterLayout{}, false
	}
	fm := findFrontMatter(src, start)
	if !fm.ok {
		return FrontMatterLayout{}, false
	}
	root, err := decodeFrontMatter(src, fm)
	if err != nil || (root != nil && root.Style&yaml.FlowStyle != 0) {
		return FrontMatterLayout{}, false
	}
	out := FrontMatterLayout{Head: fm.yamlStart, Close: fm.yamlEnd, Body: fm.end}
	if root == nil {
		return out, true
	}
	starts := lineStarts(src, fm.yamlStart, fm.yamlEnd)
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key := root.Content[i]
		line := key.Line - 1
		if key.Kind != yaml.ScalarNode || key.Column != 1 || line >= len(starts) || seen[key.Value] {
			return FrontMatterLayout{}, false
		}
		seen[key.Value] = true
		out.Props = append(out.Props, PropertySpan{Key: key.Value, Start: starts[line]})
	}
	for i := range out.Props {
		if i+1 < len(out.Props) {
			out.Props[i].End = out.Props[i+1].Start
		} else {
			out.Props[i].End = fm.yamlEnd
		}
		if out.Props[i].End <= out.Props[i].Start {
			return FrontMatterLayout{}, false // two keys on one line: a flow style
		}
	}
	return out, true
}
