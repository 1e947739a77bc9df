package gitrepo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/memotree/memotree/backend/note"
)

// PropertyChange is one front matter property a hunk changes: its value in HEAD's
// version (Old) and in the working tree (New); nil on the side the property is absent.
// Values are shown as written for a plain value, as JSON for a list or a mapping.
type PropertyChange struct {
	Key string  `json:"key"`
	Old *string `json:"old,omitempty"`
	New *string `json:"new,omitempty"`
}

// frontMatterHunks gives each hunk that changes only front matter lines the
// properties it changes: those that differ between cur and cur with that hunk alone
// put back. A side whose YAML front matter does not parse leaves the hunks as lines.
func frontMatterHunks(hunks []Hunk, old, cur []byte) {
	oldLines, ok := frontMatterLines(old)
	if !ok {
		return
	}
	curLines, ok := frontMatterLines(cur)
	if !ok || oldLines == 0 && curLines == 0 {
		return
	}
	curProps, ok := orderedProps(cur)
	if !ok {
		return
	}
	for i, h := range hunks {
		if !inFrontMatter(h, oldLines, curLines) {
			continue
		}
		back := revertHunks(hunks, map[int]bool{h.Number: true}, cur, false)
		backProps, ok := orderedProps(back)
		if !ok {
			continue
		}
		hunks[i].Properties = propertyDelta(backProps, curProps)
	}
}

// inFrontMatter reports whether every changed line of h lies in the front matter.
func inFrontMatter(h Hunk, oldLines, curLines int) bool {
	for _, l := range h.Lines {
		if l.Kind == Del && l.Old > oldLines || l.Kind == Add && l.New > curLines {
			return false
		}
	}
	return true
}

// frontMatterLines counts the lines of a note's YAML front matter, its fences
// included (0 when it has none); ok is false for front matter in another form.
func frontMatterLines(src []byte) (n int, ok bool) {
	nt := note.ParseLean(src)
	switch nt.FrontMatterFormat {
	case "":
		return 0, true
	case note.FormatYAML:
		return bytes.Count(src[:nt.FrontMatterEnd], []byte("\n")), true
	}
	return 0, false
}

// prop is one property as written, in order.
type prop struct {
	key   string
	value any
}

// orderedProps decodes a note's YAML front matter into its properties in file order;
// none for a note without front matter, ok false when it does not parse.
func orderedProps(src []byte) ([]prop, bool) {
	nt := note.ParseLean(src)
	if nt.FrontMatterFormat == "" {
		return nil, true
	}
	if nt.FrontMatterFormat != note.FormatYAML {
		return nil, false
	}
	block := string(src[nt.FrontMatterStart:nt.FrontMatterEnd])
	_, body, _ := strings.Cut(block, "\n") // the opening fence
	if i := strings.LastIndex(strings.TrimRight(body, "\r\n"), "\n"); i >= 0 {
		body = body[:i+1] // the closing fence
	} else {
		body = ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		return nil, false
	}
	if len(doc.Content) == 0 {
		return nil, true
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, false
	}
	out := make([]prop, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		var v any
		if err := m.Content[i+1].Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, prop{key: m.Content[i].Value, value: v})
	}
	return out, true
}

// propertyDelta lists the properties whose values differ between old and cur: cur's
// order first, then those only old has.
func propertyDelta(old, cur []prop) []PropertyChange {
	find := func(ps []prop, k string) (any, bool) {
		for _, p := range ps {
			if p.key == k {
				return p.value, true
			}
		}
		return nil, false
	}
	var out []PropertyChange
	for _, p := range cur {
		ov, had := find(old, p.key)
		if had && reflect.DeepEqual(ov, p.value) {
			continue
		}
		c := PropertyChange{Key: p.key, New: valueText(p.value)}
		if had {
			c.Old = valueText(ov)
		}
		out = append(out, c)
	}
	for _, p := range old {
		if _, has := find(cur, p.key); !has {
			out = append(out, PropertyChange{Key: p.key, Old: valueText(p.value)})
		}
	}
	return out
}

// valueText shows a property's value: a plain value as written, a list or mapping
// as JSON, an empty value as "".
func valueText(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
	case string:
		s = x
	case bool, int, int64, uint64, float64:
		s = fmt.Sprint(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	return &s
}
